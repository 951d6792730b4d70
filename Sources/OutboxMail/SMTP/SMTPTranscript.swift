import CCurl

/// Follows one SMTP transaction through libcurl's debug callback: the commands sent
/// (`CURLINFO_HEADER_OUT`) and the replies received (`CURLINFO_HEADER_IN`), so that each reply
/// is paired with the command it answers. That gives per-recipient outcomes and the server's
/// final reply, which libcurl's result code alone does not.
///
/// Only command verbs and RCPT addresses are kept: the AUTH line (credentials) is never stored.
final class SMTPTranscript {
    private(set) var replies: [SMTPReply] = []
    private var command = "GREETING"
    private var recipient: String?
    private var partial: [UInt8] = []

    private static let verbs: Set<String> = ["EHLO", "HELO", "STARTTLS", "AUTH", "MAIL", "RCPT", "DATA", "QUIT",
                                             "RSET", "NOOP", "VRFY", "EXPN", "HELP"]

    /// Called with each command line libcurl sends.
    func sent(_ line: String) {
        let verb = String(line.unicodeScalars.prefix { $0 != " " && $0 != "\r" && $0 != "\n" }).uppercased()
        // Anything else is a SASL continuation (credentials): it stays part of AUTH and is
        // never kept.
        command = Self.verbs.contains(verb) ? verb : "AUTH"
        recipient = nil
        if verb == "RCPT", let open = line.firstIndex(of: "<"), let close = line[open...].firstIndex(of: ">") {
            recipient = String(line[line.index(after: open)..<close])
        }
    }

    /// Called with reply bytes as they arrive; may hold several lines or part of one.
    /// Works on bytes: as a Swift `Character`, CRLF is one grapheme and hides its LF.
    func received(_ bytes: UnsafeRawBufferPointer) {
        for byte in bytes {
            guard byte == 10 else { partial.append(byte); continue }
            if partial.last == 13 { partial.removeLast() }
            let line = String(decoding: partial, as: UTF8.self)
            partial.removeAll(keepingCapacity: true)
            let scalars = Array(line.unicodeScalars.prefix(4))
            guard scalars.count >= 3, let code = Int(String(String.UnicodeScalarView(scalars[0..<3]))) else { continue }
            // "250-…" continues a multi-line reply; "250 …" (or a bare "250") ends it.
            guard scalars.count == 3 || scalars[3] == " " else { continue }
            // QUIT's reply says nothing about the message and would hide the one that did.
            if command == "QUIT" { continue }
            replies.append(SMTPReply(command: command, recipient: recipient, code: code, text: line))
            // After 354 the message data follows; the next reply answers its end.
            if command == "DATA" && code == 354 { command = "." }
        }
    }

    /// The reply to the end of the message data: the server's verdict on the message.
    var finalReply: SMTPReply? { replies.last { $0.command == "." } }

    var lastReply: SMTPReply? { replies.last }

    var recipientReplies: [SMTPReply] { replies.filter { $0.command == "RCPT" } }

    func reset() {
        replies = []
        command = "GREETING"
        recipient = nil
        partial = []
    }
}
