import FoundationEssentials
import Glibc
import OutboxModel

/// Where a command writes: stdout for results, stderr for notes. Tables on a terminal, JSON
/// when asked.
public struct Output: Sendable {
    public var isTerminal: Bool

    public init(isTerminal: Bool = isatty(STDOUT_FILENO) == 1) { self.isTerminal = isTerminal }

    public func line(_ text: String = "") {
        SystemFile.standardOutput.write(text + "\n")
    }

    public func note(_ text: String) {
        SystemFile.standardError.write(text + "\n")
    }

    /// One JSON object on one line (JSON Lines for lists, a single object for `show`).
    public func json(_ object: [String: Any?]) {
        line(JSONText.encode(object))
    }
}

/// JSON text from plain dictionaries, keys sorted so output is stable; `nil` values are dropped
/// (and `nil` in an array is `null`). Written by hand, byte for byte as `JSONSerialization` with
/// `[.sortedKeys, .withoutEscapingSlashes]` wrote it, which lives in full Foundation (ICU: about
/// 4 ms at every start of `outbox`).
public enum JSONText {
    public static func encode(_ object: [String: Any?]) -> String {
        var out = ""
        write(object, to: &out)
        return out
    }

    static func write(_ value: Any?, to out: inout String) {
        switch value {
        case nil: out += "null"
        case let dict as [String: Any?]: writeObject(dict.compactMapValues { $0 }, to: &out)
        case let dict as [String: Any]: writeObject(dict, to: &out)
        case let array as [Any?]: writeArray(array, to: &out)
        case let array as [Any]: writeArray(array.map { Optional($0) }, to: &out)
        case let string as String: writeString(string, to: &out)
        case let bool as Bool: out += bool ? "true" : "false"
        case let int as Int: out += String(int)
        case let int as Int64: out += String(int)
        case let int as any BinaryInteger: out += String(describing: int)
        case let double as Double: out += number(double)
        case let float as Float: out += number(Double(float))
        case let v?: writeString(String(describing: v), to: &out)
        }
    }

    static func writeObject(_ dict: [String: Any], to out: inout String) {
        out += "{"
        for (i, key) in dict.keys.sorted(by: keyOrder).enumerated() {
            if i > 0 { out += "," }
            writeString(key, to: &out)
            out += ":"
            write(dict[key]!, to: &out)
        }
        out += "}"
    }

    static func writeArray(_ array: [Any?], to out: inout String) {
        out += "["
        for (i, element) in array.enumerated() {
            if i > 0 { out += "," }
            write(element, to: &out)
        }
        out += "]"
    }

    static func writeString(_ string: String, to out: inout String) {
        out += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// Doubles as `JSONSerialization` writes them: Swift's shortest form without a trailing `.0`.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// `JSONSerialization`'s `.sortedKeys` order, which is ICU collation (case-insensitive, runs
    /// of digits by value): for ASCII, punctuation before digits before letters, in the order of
    /// `collationOrder`; lowercase before uppercase on a tie. Our keys are fixed ASCII
    /// identifiers; other characters come after ASCII by code point (ICU would interleave them).
    static func keyOrder(_ a: String, _ b: String) -> Bool {
        let x = Array(a.unicodeScalars.filter { !isIgnorable($0) }), y = Array(b.unicodeScalars.filter { !isIgnorable($0) })
        var i = 0, j = 0
        while i < x.count && j < y.count {
            if isDigit(x[i]) && isDigit(y[j]) {
                var ei = i, ej = j
                while ei < x.count && isDigit(x[ei]) { ei += 1 }
                while ej < y.count && isDigit(y[ej]) { ej += 1 }
                let nx = x[i..<ei].drop(while: { $0 == "0" }), ny = y[j..<ej].drop(while: { $0 == "0" })
                if nx.count != ny.count { return nx.count < ny.count }
                for (p, q) in zip(nx, ny) where p != q { return p.value < q.value }
                i = ei
                j = ej
                continue
            }
            let p = weight(x[i]), q = weight(y[j])
            if p != q { return p < q }
            i += 1
            j += 1
        }
        if x.count - i != y.count - j { return x.count - i < y.count - j }
        // Equal but for case, leading zeros or ignorable characters: lowercase first, then fewer
        // zeros, then the exact text.
        i = 0
        j = 0
        while i < x.count && j < y.count {
            if isDigit(x[i]) && isDigit(y[j]) {
                var ei = i, ej = j
                while ei < x.count && isDigit(x[ei]) { ei += 1 }
                while ej < y.count && isDigit(y[ej]) { ej += 1 }
                if ei - i != ej - j { return ei - i < ej - j }
                i = ei
                j = ej
                continue
            }
            if x[i] != y[j] { return x[i].properties.isLowercase }
            i += 1
            j += 1
        }
        return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
    }

    /// ASCII in ICU's root collation order (letters folded to lowercase).
    private static let collationOrder: [UInt8] = Array("\t\n\u{0B}\u{0C}\r _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz".utf8)

    private static let asciiWeights: [UInt32] = {
        var weights = [UInt32](repeating: 0, count: 128)
        for (rank, byte) in collationOrder.enumerated() { weights[Int(byte)] = UInt32(rank) + 1 }
        for upper in UInt8(ascii: "A")...UInt8(ascii: "Z") { weights[Int(upper)] = weights[Int(upper + 0x20)] }
        return weights
    }()

    private static func weight(_ s: Unicode.Scalar) -> UInt32 { s.value < 128 ? asciiWeights[Int(s.value)] : 1000 + s.value }

    /// Control characters other than whitespace: ignored by collation.
    private static func isIgnorable(_ s: Unicode.Scalar) -> Bool { s.value < 128 && asciiWeights[Int(s.value)] == 0 }

    private static func isDigit(_ s: Unicode.Scalar) -> Bool { s.value >= 0x30 && s.value <= 0x39 }
}
