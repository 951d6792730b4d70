/// A mailbox: an optional display name and an addr-spec (`Ada Lovelace <ada@example.org>`).
public struct EmailAddress: Sendable, Equatable, CustomStringConvertible {
    public let displayName: String?
    public let address: String

    /// Parses `addr@host` or `Name <addr@host>` (a quoted name may contain commas).
    /// Throws a data error naming the text and what is wrong with it.
    public init(parsing text: String) throws(OutboxError) {
        if let address = Self.plainASCIIAddress(text) {
            displayName = nil
            self.address = address
            return
        }
        try HeaderText.checkSafe(text, field: "address")
        let trimmed = text.trimmingSpaces()
        var name: String?
        var spec = trimmed
        if trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") {
            spec = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
            var display = trimmed[..<open].trimmingSpaces()
            if display.count >= 2, display.hasPrefix("\""), display.hasSuffix("\"") {
                display = String(display.dropFirst().dropLast()).replacingEvery("\\\"", with: "\"")
            }
            name = display.isEmpty ? nil : display
        }
        guard Self.isValidAddrSpec(spec) else {
            throw .data("invalid e-mail address '\(trimmed)': expected local@domain, e.g. ada@example.org")
        }
        displayName = name
        address = spec
    }

    private static let atext = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~")

    /// A practical RFC 5321 check: one `@`, a dot-atom local part (or quoted string), a domain of
    /// LDH labels or an address literal, and the length limits.
    static func isValidAddrSpec(_ spec: String) -> Bool {
        guard let at = spec.lastIndex(of: "@") else { return false }
        let local = spec[..<at]
        let domain = spec[spec.index(after: at)...]
        guard !local.isEmpty, local.utf8.count <= 64, !domain.isEmpty, domain.utf8.count <= 255 else { return false }
        if local.hasPrefix("\"") {
            guard local.count >= 2, local.hasSuffix("\"") else { return false }
        } else {
            let atoms = local.split(separator: ".", omittingEmptySubsequences: false)
            guard atoms.allSatisfy({ !$0.isEmpty && $0.allSatisfy { atext.contains($0) || $0.unicodeScalars.first!.value > 127 } })
            else { return false }
        }
        if domain.hasPrefix("[") { return domain.hasSuffix("]") }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
        }
    }

    /// The common case read byte by byte: a valid bare addr-spec in ASCII, perhaps with spaces or
    /// tabs around it. `nil` for anything else (names, non-ASCII, invalid addresses), which the
    /// general parser reads and, when wrong, explains. For ASCII without CR or LF a `Character`
    /// is one byte, so both make the same decisions.
    static func plainASCIIAddress(_ text: String) -> String? {
        var utf8 = Substring(text).utf8
        while let first = utf8.first, first == 0x20 || first == 0x09 { utf8.removeFirst() }
        while let last = utf8.last, last == 0x20 || last == 0x09 { utf8.removeLast() }
        guard utf8.last != UInt8(ascii: ">") else { return nil }
        var at: String.Index?
        for index in utf8.indices {
            let byte = utf8[index]
            // Bytes below 0x20 (CR, LF, NUL among them) and non-ASCII go the general way.
            guard byte >= 0x20, byte < 0x80 else { return nil }
            if byte == UInt8(ascii: "@") { at = index }
        }
        guard let at else { return nil }
        let local = utf8[..<at]
        let domain = utf8[utf8.index(after: at)...]
        guard !local.isEmpty, local.count <= 64, !domain.isEmpty, domain.count <= 255 else { return nil }
        if local.first == UInt8(ascii: "\"") {
            guard local.count >= 2, local.last == UInt8(ascii: "\"") else { return nil }
        } else {
            for atom in local.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
                guard !atom.isEmpty, atom.allSatisfy({ asciiAtext[Int($0)] }) else { return nil }
            }
        }
        if domain.first == UInt8(ascii: "[") {
            guard domain.last == UInt8(ascii: "]") else { return nil }
        } else {
            for label in domain.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
                guard !label.isEmpty, label.count <= 63, label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-"),
                      label.allSatisfy({ asciiLabel[Int($0)] }) else { return nil }
            }
        }
        return String(Substring(utf8))
    }

    /// `atext` of RFC 5322 (and of `isValidAddrSpec`), indexed by ASCII byte.
    private static let asciiAtext: [Bool] = (0..<128).map { byte in
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~".utf8.contains(UInt8(byte))
    }

    /// Letters, digits and `-`: what `isValidAddrSpec` allows in a domain label, for ASCII.
    private static let asciiLabel: [Bool] = (0..<128).map { byte in
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-".utf8.contains(UInt8(byte))
    }

    public var description: String {
        guard let displayName else { return address }
        return "\(displayName) <\(address)>"
    }
}

/// Header values must never carry CR, LF or NUL: that is how header injection is made impossible.
public enum HeaderText {
    public static func checkSafe(_ value: String, field: String) throws(OutboxError) {
        // In UTF-8 these bytes only ever stand for themselves.
        if value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) {
            throw .data("\(field) contains a line break or NUL character, which is not allowed in a mail header")
        }
    }
}
