/// The few `NSString` text helpers the front end needs, without linking full Foundation (whose
/// ICU costs every `outbox` process about 4 ms to load). They mirror Foundation's results:
/// trimming works on Unicode scalars with the same sets as `CharacterSet.whitespaces`,
/// `.newlines` and `.whitespacesAndNewlines`; replacing matches literally.
extension Unicode.Scalar {
    /// `CharacterSet.whitespaces`: general category Zs, and tab.
    @inlinable public var isHorizontalSpace: Bool {
        value == 0x09 || value == 0x20 || (value >= 0x80 && properties.generalCategory == .spaceSeparator)
    }

    /// `CharacterSet.newlines`: U+000A–U+000D, U+0085, U+2028, U+2029.
    @inlinable public var isLineBreak: Bool {
        (0x0A...0x0D).contains(value) || value == 0x85 || value == 0x2028 || value == 0x2029
    }
}

extension StringProtocol {
    /// `trimmingSpaces()`.
    public func trimmingSpaces() -> String { trimmingScalars { $0.isHorizontalSpace } }

    /// `trimmingLineBreaks()`.
    public func trimmingLineBreaks() -> String { trimmingScalars { $0.isLineBreak } }

    /// `trimmingSpacesAndLineBreaks()`.
    public func trimmingSpacesAndLineBreaks() -> String { trimmingScalars { $0.isHorizontalSpace || $0.isLineBreak } }

    /// True when there is nothing but spaces and line breaks — without copying a long text.
    public var isBlank: Bool { !unicodeScalars.contains { !($0.isHorizontalSpace || $0.isLineBreak) } }

    /// Drops leading and trailing scalars that match `drop`.
    public func trimmingScalars(where drop: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !drop($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !drop($0) })!
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    /// Every occurrence of `target` replaced by `replacement`, matched byte for byte (as
    /// `replacingOccurrences(of:with:)` does for the ASCII targets used here, and unlike the
    /// standard library's `replacing`, which would not see the `\n` inside a `\r\n` character).
    public func replacingEvery(_ target: String, with replacement: String) -> String {
        let source = Array(utf8), pattern = Array(target.utf8)
        guard !pattern.isEmpty, source.count >= pattern.count else { return String(self) }
        var out: [UInt8] = []
        out.reserveCapacity(source.count)
        var i = 0, found = false
        while i < source.count {
            if i + pattern.count <= source.count, source[i] == pattern[0], source[i..<i + pattern.count].elementsEqual(pattern) {
                out.append(contentsOf: replacement.utf8)
                i += pattern.count
                found = true
            } else {
                out.append(source[i])
                i += 1
            }
        }
        return found ? String(decoding: out, as: UTF8.self) : String(self)
    }
}
