/// What a print item or attachment is, decided by its content (magic bytes), never its name.
public enum DocumentType: String, Codable, Sendable {
    case pdf, png, jpeg, text

    public var mimeType: String {
        switch self {
        case .pdf: "application/pdf"
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .text: "text/plain; charset=utf-8"
        }
    }

    public var isImage: Bool { self == .png || self == .jpeg }

    /// Sniffs the first bytes of a file (a few KB are enough). `nil`: unknown type.
    public static func sniff(_ head: [UInt8]) -> DocumentType? {
        if head.starts(with: Array("%PDF-".utf8)) { return .pdf }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        // Text: valid UTF-8 (allowing a cut multi-byte sequence at the end) with no NUL and
        // few control characters other than tab, newline, carriage return and form feed.
        guard !head.isEmpty, !head.contains(0) else { return nil }
        var bytes = head[...]
        for _ in 0..<3 where String(validating: bytes, as: UTF8.self) == nil && !bytes.isEmpty {
            bytes = bytes.dropLast()
        }
        guard String(validating: bytes, as: UTF8.self) != nil else { return nil }
        let controls = bytes.filter { $0 < 0x20 && ![0x09, 0x0A, 0x0D, 0x0C, 0x1B].contains($0) }.count
        return controls * 100 <= max(bytes.count, 1) ? .text : nil
    }
}
