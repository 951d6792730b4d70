/// A mailbox: an optional display name and an addr-spec (`Ada Lovelace <ada@example.org>`).
public struct EmailAddress: Sendable, Equatable, CustomStringConvertible {
    public let displayName: String?
    public let address: String

    /// Parses `addr@host` or `Name <addr@host>` (a quoted name may contain commas).
    /// Throws a data error naming the text and what is wrong with it.
    public init(parsing text: String) throws(OutboxError) {
        try HeaderText.checkSafe(text, field: "address")
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var name: String?
        var spec = trimmed
        if trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") {
            spec = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
            var display = trimmed[..<open].trimmingCharacters(in: .whitespaces)
            if display.count >= 2, display.hasPrefix("\""), display.hasSuffix("\"") {
                display = String(display.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
            }
            name = display.isEmpty ? nil : display
        }
        guard Self.isValidAddrSpec(spec) else {
            throw .data("invalid e-mail address '\(trimmed)': expected local@domain, e.g. ada@example.org")
        }
        displayName = name
        address = spec
    }

    /// A practical RFC 5321 check: one `@`, a dot-atom local part (or quoted string), a domain of
    /// LDH labels or an address literal, and the length limits.
    static func isValidAddrSpec(_ spec: String) -> Bool {
        guard let at = spec.lastIndex(of: "@") else { return false }
        let local = spec[..<at]
        let domain = spec[spec.index(after: at)...]
        guard !local.isEmpty, local.utf8.count <= 64, !domain.isEmpty, domain.utf8.count <= 255 else { return false }
        let atext = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~")
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

    public var description: String {
        guard let displayName else { return address }
        return "\(displayName) <\(address)>"
    }
}

/// Header values must never carry CR, LF or NUL: that is how header injection is made impossible.
public enum HeaderText {
    public static func checkSafe(_ value: String, field: String) throws(OutboxError) {
        if value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) {
            throw .data("\(field) contains a line break or NUL character, which is not allowed in a mail header")
        }
    }
}
