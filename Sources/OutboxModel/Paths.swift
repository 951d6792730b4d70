import Foundation

/// XDG locations and `~` expansion.
public enum Paths {
    public static var environment: [String: String] { ProcessInfo.processInfo.environment }

    public static var home: String { environment["HOME"] ?? NSHomeDirectory() }

    /// `$XDG_DATA_HOME/outbox`, else `~/.local/share/outbox`.
    public static var dataDirectory: String {
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty { return xdg + "/outbox" }
        return home + "/.local/share/outbox"
    }

    /// `$XDG_CONFIG_HOME/outbox/config.json`, else `~/.config/outbox/config.json`.
    public static var defaultConfigFile: String {
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty { return xdg + "/outbox/config.json" }
        return home + "/.config/outbox/config.json"
    }

    public static var defaultDatabase: String { dataDirectory + "/outbox.sqlite" }

    /// Where the embedded default sinks capture: `~/.local/share/outbox/out/<kind>`.
    public static func defaultOutput(_ kind: String) -> String { dataDirectory + "/out/" + kind }

    public static func expand(_ path: String) -> String {
        if path == "~" { return home }
        if path.hasPrefix("~/") { return home + path.dropFirst() }
        return path
    }

    /// Shows a path with the home directory as `~`, for messages.
    public static func abbreviate(_ path: String) -> String {
        let home = self.home
        if !home.isEmpty, home != "/", path.hasPrefix(home + "/") { return "~" + path.dropFirst(home.count) }
        return path
    }
}
