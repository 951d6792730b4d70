import FoundationEssentials

/// A parsed JSON document, for strict readers that must name the key path of anything wrong
/// (config files, `import` lines). Read by `JSONParser`, with Foundation's `JSONDecoder` as the judge
/// of anything it leaves aside.
public enum JSONValue: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    /// Parses a JSON document. Most documents are read by a hand-written parser; anything it
    /// does not accept goes to `JSONDecoder`, which decides (and throws for invalid JSON).
    public static func parse(_ data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { try parse($0) }
    }

    /// Parses the JSON document in `bytes` (e.g. one line of a larger buffer, without copying it).
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws -> JSONValue {
        if let value = JSONParser.parse(bytes) { return value }
        return try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }

    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// Reads one JSON object strictly: every key must be consumed by a typed getter, and
/// `finish()` reports any left over as unknown — naming its full key path.
public struct JSONObjectReader {
    public let path: String
    private let members: [String: JSONValue]
    private var seen: Set<String> = []
    private let makeError: @Sendable (String) -> OutboxError

    /// `makeError` turns a message into the right error (config → 78, import → 65).
    public init(_ value: JSONValue, path: String, makeError: @escaping @Sendable (String) -> OutboxError) throws(OutboxError) {
        guard case .object(let members) = value else {
            throw makeError("\(path.isEmpty ? "the document" : path) must be an object, not \(value.typeName)")
        }
        self.path = path
        self.members = members
        self.makeError = makeError
    }

    public func keyPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    public func has(_ key: String) -> Bool { members[key] != nil }

    private mutating func value(_ key: String) -> JSONValue? {
        seen.insert(key)
        if case .null? = members[key] { return nil }
        return members[key]
    }

    private func wrong(_ key: String, _ expected: String, _ value: JSONValue) -> OutboxError {
        makeError("\(keyPath(key)) must be \(expected), not \(value.typeName)")
    }

    public mutating func string(_ key: String) throws(OutboxError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let s) = value else { throw wrong(key, "a string", value) }
        return s
    }

    public mutating func bool(_ key: String) throws(OutboxError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let b) = value else { throw wrong(key, "true or false", value) }
        return b
    }

    public mutating func number(_ key: String, range: ClosedRange<Double>? = nil) throws(OutboxError) -> Double? {
        guard let value = value(key) else { return nil }
        guard case .number(let n) = value else { throw wrong(key, "a number", value) }
        if let range, !range.contains(n) {
            throw makeError("\(keyPath(key)) must be between \(range.lowerBound.formatted) and \(range.upperBound.formatted), not \(n.formatted)")
        }
        return n
    }

    public mutating func int(_ key: String, range: ClosedRange<Int>? = nil) throws(OutboxError) -> Int? {
        guard let value = value(key) else { return nil }
        guard case .number(let n) = value, n == n.rounded(), abs(n) < 1e15 else { throw wrong(key, "a whole number", value) }
        if let range, !range.contains(Int(n)) {
            throw makeError("\(keyPath(key)) must be between \(range.lowerBound) and \(range.upperBound), not \(Int(n))")
        }
        return Int(n)
    }

    /// A string or an array of strings (a single recipient may be written without brackets).
    public mutating func strings(_ key: String) throws(OutboxError) -> [String]? {
        guard let value = value(key) else { return nil }
        switch value {
        case .string(let s): return [s]
        case .array(let items):
            var result: [String] = []
            for (index, item) in items.enumerated() {
                guard case .string(let s) = item else {
                    throw makeError("\(keyPath(key))[\(index)] must be a string, not \(item.typeName)")
                }
                result.append(s)
            }
            return result
        default: throw wrong(key, "a string or an array of strings", value)
        }
    }

    public mutating func object(_ key: String) throws(OutboxError) -> JSONObjectReader? {
        guard let value = value(key) else { return nil }
        return try JSONObjectReader(value, path: keyPath(key), makeError: makeError)
    }

    public mutating func array(_ key: String) throws(OutboxError) -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard case .array(let items) = value else { throw wrong(key, "an array", value) }
        return items
    }

    /// A string that must be one of `allowed`.
    public mutating func choice(_ key: String, _ allowed: [String]) throws(OutboxError) -> String? {
        guard let s = try string(key) else { return nil }
        guard allowed.contains(s) else {
            throw makeError("\(keyPath(key)) must be one of \(allowed.joined(separator: ", ")), not '\(s)'")
        }
        return s
    }

    /// The raw members not yet read, for maps with free keys (e.g. `headers_env`).
    public mutating func rawObject(_ key: String) throws(OutboxError) -> [String: JSONValue]? {
        guard let value = value(key) else { return nil }
        guard case .object(let members) = value else { throw wrong(key, "an object", value) }
        return members
    }

    /// Fails on the first key no getter asked for.
    public func finish() throws(OutboxError) {
        if let unknown = members.keys.sorted().first(where: { !seen.contains($0) }) {
            let known = seen.sorted()
            let hint = Spelling.closest(to: unknown, in: known).map { " (did you mean '\($0)'?)" } ?? ""
            throw makeError("unknown key \(keyPath(unknown))\(hint)")
        }
    }
}

extension Double {
    var formatted: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
