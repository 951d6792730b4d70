import FoundationEssentials

/// A strict RFC 8259 reader of UTF-8 bytes into `JSONValue`, for the hot path of `import`
/// (a `JSONDecoder` with `Decodable` dispatch per value costs several times more per line).
///
/// It accepts a subset of what `JSONDecoder` accepts and returns `nil` for anything else —
/// invalid JSON, but also rarities such as a byte-order mark, lone surrogates or numbers beyond
/// `Double` — so that `JSONValue.parse` can hand those to `JSONDecoder`, which stays the judge.
struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    /// Deeper documents go to `JSONDecoder`, which has its own limit.
    private static let maxDepth = 512

    private init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes.assumingMemoryBound(to: UInt8.self) }

    /// The document in `bytes`, or `nil` when this parser does not accept it.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> JSONValue? {
        var parser = JSONParser(bytes)
        parser.skipWhitespace()
        guard let value = parser.value() else { return nil }
        parser.skipWhitespace()
        return parser.index == parser.bytes.count ? value : nil
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { return nil }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return nil }
        index += count
        return value
    }

    private mutating func value() -> JSONValue? {
        guard let byte = current else { return nil }
        switch byte {
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return array()
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
        default: return nil
        }
    }

    private mutating func object() -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { return nil }
        index += 1  // {
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\""), let key = string() else { return nil }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { return nil }
            index += 1
            skipWhitespace()
            guard let value = value() else { return nil }
            // A repeated key: `JSONDecoder`'s choice applies (rare enough to defer to it).
            guard members.updateValue(value, forKey: key) == nil else { return nil }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: return nil
            }
        }
    }

    private mutating func array() -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { return nil }
        index += 1  // [
        var items: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipWhitespace()
            guard let value = value() else { return nil }
            items.append(value)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(items)
            default: return nil
            }
        }
    }

    /// A string starting at the opening quote. Unescaped runs are copied in one piece and
    /// validated as UTF-8.
    private mutating func string() -> String? {
        index += 1  // "
        let start = index
        // The common case: no escapes. Find the closing quote, rejecting control characters.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { return nil }
            index += 1
        }
        guard index < bytes.count else { return nil }
        // Escapes: build the bytes, then validate once.
        var utf8 = [UInt8](UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(validating: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard let escaped = current else { return nil }
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    guard var scalar = hex4() else { return nil }
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else { return nil }
                        index += 2
                        guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        return nil
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { return nil }
                    utf8.append(contentsOf: UTF8.encode(unicode)!)
                default: return nil
                }
            default:
                if byte < 0x20 { return nil }
                utf8.append(byte)
                index += 1
            }
        }
        return nil
    }

    private mutating func hex4() -> UInt32? {
        guard bytes.count - index >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, converted by `strtod`.
    private mutating func number() -> JSONValue? {
        let start = index
        func digits(_ parser: inout JSONParser) -> Int {
            let first = parser.index
            while let byte = parser.current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { parser.index += 1 }
            return parser.index - first
        }
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits(&self) > 0 else { return nil }
        }
        var isInteger = true
        if current == UInt8(ascii: ".") {
            index += 1
            isInteger = false
            guard digits(&self) > 0 else { return nil }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            isInteger = false
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { return nil }
        }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
        // Small integers are exact; the rest goes through strtod for correct rounding.
        if isInteger && text.count <= 15 {
            var value: Int64 = 0
            var negative = false
            for byte in text {
                if byte == UInt8(ascii: "-") { negative = true } else { value = value * 10 + Int64(byte - UInt8(ascii: "0")) }
            }
            // -0 keeps its sign, as strtod gives it.
            return .number(negative ? -Double(value) : Double(value))
        }
        guard let double = Double(String(decoding: text, as: UTF8.self)), double.isFinite else { return nil }
        return .number(double)
    }
}
