import Foundation
import OutboxEngine
import OutboxModel

/// Turns a `MailContent` and its attachments into an RFC 5322 / MIME message (RFC 2045–2047,
/// 2231): From, To, Cc, Reply-To, Subject, Date, Message-ID, MIME-Version, extra headers; Bcc
/// only in the envelope; text and HTML as `multipart/alternative`, attachments in
/// `multipart/mixed`; CRLF everywhere, header lines folded below 78 characters.
///
/// Every value is checked for CR/LF/NUL again here, although compose time already refused them:
/// a header line is only ever broken by our own folding, so header injection is impossible.
public struct MIMEComposer: Sendable {
    /// `mail.from` from the config, used when a mail names no sender.
    public var defaultSender: String?
    /// Domain for `Message-ID` when the sender's address has no usable one.
    public var hostName: String

    public init(defaultSender: String?, hostName: String = ProcessInfo.processInfo.hostName) {
        self.defaultSender = defaultSender
        self.hostName = hostName
    }

    /// Headers the composer writes itself; extra headers may not set them.
    static let reservedHeaders: Set<String> = [
        "from", "to", "cc", "bcc", "reply-to", "subject", "date", "message-id", "mime-version",
        "content-type", "content-transfer-encoding", "content-disposition", "sender",
    ]

    /// Composes a delivery's mail. Throws a data error when the mail cannot be expressed
    /// safely (no sender, a line break in a value, a reserved extra header).
    public func compose(_ delivery: Delivery) throws(OutboxError) -> ComposedMessage {
        guard case .mail(let mail) = delivery.content else {
            throw .data("message #\(delivery.messageID) is not a mail")
        }
        let attachments = delivery.attachments.filter { $0.role == .attachment }.sorted { $0.position < $1.position }
        return try compose(mail, uid: delivery.uid, date: delivery.createdAt, attachments: attachments)
    }

    public func compose(_ mail: MailContent, uid: String, date: Milliseconds,
                        attachments: [AttachmentInfo]) throws(OutboxError) -> ComposedMessage {
        guard let senderText = mail.sender ?? defaultSender else {
            throw .data("the mail has no sender: give --from or set mail.from in the config")
        }
        let from = try parse(senderText, field: "from")
        let to = try mail.to.map { (text) throws(OutboxError) in try parse(text, field: "to") }
        let cc = try mail.cc.map { (text) throws(OutboxError) in try parse(text, field: "cc") }
        let bcc = try mail.bcc.map { (text) throws(OutboxError) in try parse(text, field: "bcc") }
        let replyTo = try mail.replyTo.map { (text) throws(OutboxError) in try parse(text, field: "reply-to") }
        guard !(to + cc + bcc).isEmpty else { throw .data("the mail has no recipient: give --to, --cc or --bcc") }
        try HeaderText.checkSafe(mail.subject, field: "subject")
        try HeaderText.checkSafe(uid, field: "uid")

        let messageID = "<\(uid)@\(messageIDDomain(from.address))>"
        var head = ""
        head += HeaderEncoding.fold(name: "Date", words: [Self.rfc5322Date(date)])
        head += HeaderEncoding.fold(name: "From", words: HeaderEncoding.addressListWords([from]))
        if !to.isEmpty { head += HeaderEncoding.fold(name: "To", words: HeaderEncoding.addressListWords(to)) }
        if !cc.isEmpty { head += HeaderEncoding.fold(name: "Cc", words: HeaderEncoding.addressListWords(cc)) }
        if !replyTo.isEmpty {
            head += HeaderEncoding.fold(name: "Reply-To", words: HeaderEncoding.addressListWords(replyTo))
        }
        head += HeaderEncoding.fold(name: "Subject", words: HeaderEncoding.unstructuredWords(mail.subject))
        head += HeaderEncoding.fold(name: "Message-ID", words: [messageID])
        head += "MIME-Version: 1.0\r\n"
        for header in mail.headers {
            try checkHeaderName(header.name)
            try HeaderText.checkSafe(header.value, field: "header \(header.name)")
            head += HeaderEncoding.fold(name: header.name, words: HeaderEncoding.unstructuredWords(header.value))
        }

        let boundaryBase = "=_outbox_" + uid.filter { $0.isLetter || $0.isNumber }
        var builder = SegmentBuilder()
        builder.append(head)
        let body = bodyPart(mail, boundary: boundaryBase + "_alt")
        if attachments.isEmpty {
            builder.append(body)
        } else {
            let boundary = boundaryBase + "_mixed"
            builder.append("Content-Type: multipart/mixed;\r\n boundary=\"\(boundary)\"\r\n\r\n")
            builder.append("This is a multi-part message in MIME format.\r\n")
            builder.append("\r\n--\(boundary)\r\n")
            builder.append(body)
            for attachment in attachments {
                builder.append("\r\n--\(boundary)\r\n")
                builder.append(try attachmentHeaders(attachment))
                builder.appendAttachment(position: attachment.position, size: attachment.size)
            }
            // Each delimiter starts with CRLF, which belongs to it and not to the part before.
            builder.append("\r\n--\(boundary)--\r\n")
        }

        var seen = Set<String>()
        let recipients = (to + cc + bcc).map(\.address).filter { seen.insert($0.lowercased()).inserted }
        return ComposedMessage(envelopeSender: from.address, recipients: recipients, messageIDHeader: messageID,
                               segments: builder.finish())
    }

    // MARK: - Parts

    /// The body: one text part, or `multipart/alternative` of plain text and HTML. An HTML-only
    /// mail gets a plain-text alternative derived from the HTML. Ends with CRLF.
    private func bodyPart(_ mail: MailContent, boundary: String) -> String {
        switch (mail.textBody, mail.htmlBody) {
        case (let text?, let html?):
            return alternative([textPart(text, subtype: "plain"), textPart(html, subtype: "html")], boundary: boundary)
        case (nil, let html?):
            return alternative([textPart(HTMLText.plainText(html), subtype: "plain"), textPart(html, subtype: "html")],
                               boundary: boundary)
        case (let text?, nil):
            return textPart(text, subtype: "plain")
        case (nil, nil):
            return textPart("", subtype: "plain")
        }
    }

    private func alternative(_ parts: [String], boundary: String) -> String {
        var out = "Content-Type: multipart/alternative;\r\n boundary=\"\(boundary)\"\r\n\r\n"
        // Each delimiter starts with CRLF, which belongs to it and not to the part before.
        for part in parts { out += "\r\n--\(boundary)\r\n" + part }
        return out + "\r\n--\(boundary)--\r\n"
    }

    /// A text part: 7bit when it is short-lined ASCII, quoted-printable when mostly ASCII, base64
    /// otherwise (Japanese text). 8bit is not used: libcurl does not ask for 8BITMIME.
    private func textPart(_ text: String, subtype: String) -> String {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        var lines = normalized.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }
        if lines.count > 1 && lines.last!.isEmpty { lines.removeLast() }
        let bytes = lines.reduce(0) { $0 + $1.count }
        let nonASCII = lines.reduce(0) { $0 + $1.filter { $0 >= 128 || ($0 < 32 && $0 != 9) }.count }
        let head = "Content-Type: text/\(subtype); charset=utf-8\r\n"
        if nonASCII == 0 && lines.allSatisfy({ $0.count <= 998 }) && !normalized.contains("=_") {
            return head + "Content-Transfer-Encoding: 7bit\r\n\r\n"
                + lines.map { String(decoding: $0, as: UTF8.self) + "\r\n" }.joined()
        }
        if nonASCII * 3 < bytes {
            return head + "Content-Transfer-Encoding: quoted-printable\r\n\r\n"
                + String(decoding: QuotedPrintable.encode(lines: lines), as: UTF8.self)
        }
        let joined = Array(lines.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\r\n").utf8) + [13, 10]
        var encoded: [UInt8] = []
        joined.withUnsafeBytes { Base64.encodeLines($0, into: &encoded) }
        return head + "Content-Transfer-Encoding: base64\r\n\r\n" + String(decoding: encoded, as: UTF8.self)
    }

    private func attachmentHeaders(_ attachment: AttachmentInfo) throws(OutboxError) -> String {
        try HeaderText.checkSafe(attachment.filename, field: "attachment file name")
        let name = attachment.filename.split(separator: "/").last.map(String.init) ?? "attachment"
        return HeaderEncoding.withParameters(name: "Content-Type", value: Self.mimeType(attachment.mimeType),
                                             parameters: HeaderEncoding.parameter("name", name))
            + HeaderEncoding.withParameters(name: "Content-Disposition", value: "attachment",
                                            parameters: HeaderEncoding.parameter("filename", name))
            + "Content-Transfer-Encoding: base64\r\n\r\n"
    }

    /// The stored MIME type when it is a well-formed `type/subtype` that may be base64-encoded;
    /// `application/octet-stream` otherwise (RFC 2046 forbids base64 for message/ and multipart/).
    static func mimeType(_ stored: String) -> String {
        let token = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$&^_.+-")
        let type = stored.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        let halves = type.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2, halves.allSatisfy({ !$0.isEmpty && $0.allSatisfy { token.contains($0) } }) else {
            return "application/octet-stream"
        }
        let top = halves[0].lowercased()
        return top == "message" || top == "multipart" ? "application/octet-stream" : type.lowercased()
    }

    // MARK: - Helpers

    private func parse(_ text: String, field: String) throws(OutboxError) -> EmailAddressParts {
        let address = try EmailAddress(parsing: text)
        try HeaderText.checkSafe(address.address, field: field)
        return EmailAddressParts(displayName: address.displayName, address: address.address)
    }

    private func checkHeaderName(_ name: String) throws(OutboxError) {
        guard !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.value >= 33 && $0.value <= 126 && $0 != ":" }) else {
            throw .data("extra header name '\(name)' is not a valid header field name")
        }
        guard !Self.reservedHeaders.contains(name.lowercased()) else {
            throw .data("extra header '\(name)' is set by outbox itself; use the matching option instead")
        }
    }

    private func messageIDDomain(_ address: String) -> String {
        if let at = address.lastIndex(of: "@") {
            let domain = address[address.index(after: at)...]
            if !domain.hasPrefix("["), domain.unicodeScalars.allSatisfy({ $0.isASCII }) { return String(domain) }
        }
        return hostName.isEmpty ? "localhost" : hostName
    }

    /// `Tue, 01 Jul 2025 12:00:00 +0000` (RFC 5322 §3.3), from the message's creation time so
    /// every attempt carries the same bytes.
    static func rfc5322Date(_ milliseconds: Milliseconds) -> String {
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) +0000"
    }
}

/// Collects literal text into byte segments between attachment placeholders.
private struct SegmentBuilder {
    private var segments: [MIMESegment] = []
    private var pending: [UInt8] = []

    mutating func append(_ text: String) { pending += Array(text.utf8) }

    mutating func appendAttachment(position: Int, size: Int) {
        flush()
        segments.append(.attachment(position: position, size: size))
    }

    mutating func finish() -> [MIMESegment] {
        flush()
        return segments
    }

    private mutating func flush() {
        if !pending.isEmpty { segments.append(.bytes(pending)) }
        pending = []
    }
}
