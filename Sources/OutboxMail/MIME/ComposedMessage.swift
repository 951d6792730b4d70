import OutboxEngine

/// A message ready to send: the SMTP envelope and the RFC 5322 text as segments, where each
/// attachment is a placeholder read and base64-encoded only while the message is streamed.
///
/// Composing is deterministic: the same delivery (same uid, content, creation time, attachments)
/// gives the same bytes on every attempt, so the `directory` sink writes exactly what SMTP sends
/// and a retried mail carries the same Message-ID.
public struct ComposedMessage: Sendable {
    /// The envelope sender (`MAIL FROM`), an addr-spec.
    public let envelopeSender: String
    /// Every envelope recipient (`RCPT TO`): to, cc and bcc, each once, in order.
    public let recipients: [String]
    /// `<uid@host>`, as in the header.
    public let messageIDHeader: String
    /// The size of the streamed message in bytes.
    public let size: Int
    let segments: [MIMESegment]

    init(envelopeSender: String, recipients: [String], messageIDHeader: String, segments: [MIMESegment]) {
        self.envelopeSender = envelopeSender
        self.recipients = recipients
        self.messageIDHeader = messageIDHeader
        self.segments = segments
        self.size = segments.reduce(0) { $0 + $1.size }
    }

    /// A reader of the message bytes; attachments are opened from `files` when reached.
    public func open(messageID: Int64, files: any AttachmentSource) -> MIMEMessageStream {
        MIMEMessageStream(segments: segments, size: size, messageID: messageID, files: files)
    }

    /// The whole message in memory; for tests and small messages only.
    public func bytes(messageID: Int64, files: any AttachmentSource) throws -> [UInt8] {
        let stream = open(messageID: messageID, files: files)
        defer { stream.close() }
        var out: [UInt8] = []
        out.reserveCapacity(size)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try stream.read(into: $0) }
            if count == 0 { break }
            out += buffer[0..<count]
        }
        return out
    }
}

/// A piece of a composed message.
enum MIMESegment: Sendable {
    /// Literal bytes: headers, boundaries, encoded text parts.
    case bytes([UInt8])
    /// The attachment at `position`, `size` bytes, emitted base64 in 76-character lines.
    case attachment(position: Int, size: Int)

    var size: Int {
        switch self {
        case .bytes(let bytes): bytes.count
        case .attachment(_, let size): Base64.encodedLinesSize(size)
        }
    }
}
