/// One complete SMTP reply (possibly multi-line) and the command it answered.
struct SMTPReply: Sendable, Equatable {
    /// The command verb it answers: `GREETING`, `EHLO`, `STARTTLS`, `AUTH`, `MAIL`, `RCPT`, `DATA`,
    /// `.` (end of message data), `QUIT`.
    var command: String
    /// For `RCPT`: the recipient address.
    var recipient: String?
    /// The three-digit reply code.
    var code: Int
    /// The last line of the reply, e.g. `250 2.0.0 Ok: queued as 4F2A`.
    var text: String

    /// The RFC 3463 enhanced status code (`5.1.1`) when the reply carries one.
    var enhancedCode: String? {
        let words = text.split(separator: " ", maxSplits: 2)
        guard words.count >= 2 else { return nil }
        let parts = words[1].split(separator: ".")
        guard parts.count == 3, let first = parts.first, ["2", "4", "5"].contains(first),
              parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else { return nil }
        return String(words[1])
    }

    /// `smtp 550 5.1.1`: the code stored on the attempt.
    var attemptCode: String { "smtp \(code)" + (enhancedCode.map { " " + $0 } ?? "") }

    var isPositive: Bool { code >= 200 && code < 400 }

    /// The server's queue id in the final reply: Postfix `queued as X`, Exim `id=X`.
    var queueID: String? {
        for marker in ["queued as ", "id="] {
            if let range = text.range(of: marker) {
                let id = text[range.upperBound...].prefix { $0.isLetter || $0.isNumber || "-_.".contains($0) }
                if !id.isEmpty { return String(id) }
            }
        }
        return nil
    }
}
