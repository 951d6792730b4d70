import Foundation

/// Where a command writes: stdout for results, stderr for notes. Tables on a terminal, JSON
/// when asked.
public struct Output: Sendable {
    public var isTerminal: Bool

    public init(isTerminal: Bool = isatty(STDOUT_FILENO) == 1) { self.isTerminal = isTerminal }

    public func line(_ text: String = "") {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    public func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// One JSON object on one line (JSON Lines for lists, a single object for `show`).
    public func json(_ object: [String: Any?]) {
        line(JSONText.encode(object))
    }
}

/// JSON text from plain dictionaries, keys sorted so output is stable; `nil` values are dropped.
public enum JSONText {
    public static func encode(_ object: [String: Any?], pretty: Bool = false) -> String {
        let clean = compact(object)
        var options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
        if pretty { options.insert(.prettyPrinted) }
        guard let data = try? JSONSerialization.data(withJSONObject: clean, options: options) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    static func compact(_ value: Any?) -> Any {
        switch value {
        case let dict as [String: Any?]:
            var out: [String: Any] = [:]
            for (k, v) in dict { if let v, !(v is NSNull) { out[k] = compact(v) } }
            return out
        case let dict as [String: Any]:
            return compact(dict.mapValues { Optional($0) })
        case let array as [Any?]:
            return array.map { compact($0) }
        case let array as [Any]:
            return array.map { compact($0) }
        case let int64 as Int64:
            return Int(int64)
        case nil:
            return NSNull()
        case let v?:
            return v
        }
    }
}
