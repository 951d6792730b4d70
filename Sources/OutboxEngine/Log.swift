import FoundationEssentials
import OutboxModel
import Synchronization

/// One line per event on stderr: time, level, message id, channel, event, key=value details.
/// Quiet by default (warnings and errors); `--verbose` adds info and debug lines.
public final class Log: Sendable {
    public enum Level: Int, Sendable, Comparable {
        case debug, info, warning, error
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
        var label: String { ["debug", "info", "warn", "error"][rawValue] }
    }

    /// The process-wide log; the CLI sets its level.
    public static let shared = Log()

    private let minimum = Mutex(Level.warning)
    private let sink = Mutex<(@Sendable (String) -> Void)?>(nil)

    public init() {}

    public var level: Level {
        get { minimum.withLock { $0 } }
        set { minimum.withLock { $0 = newValue } }
    }

    /// Sends lines somewhere else than stderr (tests).
    public func redirect(_ write: (@Sendable (String) -> Void)?) { sink.withLock { $0 = write } }

    public func log(_ level: Level, _ event: String, id: Int64? = nil, channel: Channel? = nil,
                    _ details: KeyValuePairs<String, String> = [:]) {
        guard level >= self.level else { return }
        var line = Timestamp.iso8601(Timestamp.now()) + " " + level.label
        if let id { line += " #\(id)" }
        if let channel { line += " \(channel.rawValue)" }
        line += " " + event
        for (key, value) in details { line += " \(key)=\(Self.quote(value))" }
        line += "\n"
        if let write = sink.withLock({ $0 }) { write(line) } else { SystemFile.standardError.write(line) }
    }

    public func debug(_ event: String, id: Int64? = nil, channel: Channel? = nil, _ details: KeyValuePairs<String, String> = [:]) {
        log(.debug, event, id: id, channel: channel, details)
    }
    public func info(_ event: String, id: Int64? = nil, channel: Channel? = nil, _ details: KeyValuePairs<String, String> = [:]) {
        log(.info, event, id: id, channel: channel, details)
    }
    public func warning(_ event: String, id: Int64? = nil, channel: Channel? = nil, _ details: KeyValuePairs<String, String> = [:]) {
        log(.warning, event, id: id, channel: channel, details)
    }
    public func error(_ event: String, id: Int64? = nil, channel: Channel? = nil, _ details: KeyValuePairs<String, String> = [:]) {
        log(.error, event, id: id, channel: channel, details)
    }

    static func quote(_ value: String) -> String {
        let flat = value.replacingEvery("\n", with: "\\n")
        return flat.contains(" ") || flat.isEmpty ? "\"\(flat.replacingEvery("\"", with: "\\\""))\"" : flat
    }
}
