import FoundationEssentials

/// XDG locations and `~` expansion.
public enum Paths {
    public static var environment: [String: String] { ProcessInfo.processInfo.environment }

    public static var home: String { environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path }

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

    /// `NSTemporaryDirectory()`: `$TMPDIR` with a trailing slash, else `/tmp/`.
    public static var temporaryDirectory: String {
        guard let tmp = environment["TMPDIR"], !tmp.isEmpty else { return "/tmp/" }
        return tmp.hasSuffix("/") ? tmp : tmp + "/"
    }

    // MARK: - NSString's path arithmetic

    /// `lastPathComponent`: `/a/b/` → `b`, `/` → `/`, `` → ``.
    public static func lastComponent(_ path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        if trimmed == "/" { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// `deletingLastPathComponent`: `/a/b` → `/a`, `/a` → `/`, `a` → ``, `/` → `/`.
    public static func deletingLastComponent(_ path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        if trimmed == "/" { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let parent = trimmingTrailingSlashes(String(trimmed[..<slash]))
        return parent.isEmpty ? "/" : parent
    }

    /// `appendingPathComponent`: `/a` + `b` → `/a/b`, `/a/` + `b` → `/a/b`, `` + `b` → `b`.
    public static func appending(_ path: String, _ component: String) -> String {
        if path.isEmpty { return component }
        if component.isEmpty { return path }
        return trimmingTrailingSlashes(path) == "/" ? "/" + component : trimmingTrailingSlashes(path) + "/" + component
    }

    private static func trimmingTrailingSlashes(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }
}
