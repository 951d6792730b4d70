/// A mail as composed (the seeds' MFMailComposeViewController fields).
public struct MailContent: Codable, Sendable, Equatable {
    /// From; `nil` uses the configured `mail.from`.
    public var sender: String?
    public var to: [String]
    public var cc: [String]
    public var bcc: [String]
    public var replyTo: [String]
    public var subject: String
    public var textBody: String?
    public var htmlBody: String?
    /// Extra headers, in order.
    public var headers: [MailHeader]

    public init(sender: String? = nil, to: [String], cc: [String] = [], bcc: [String] = [],
                replyTo: [String] = [], subject: String, textBody: String? = nil,
                htmlBody: String? = nil, headers: [MailHeader] = []) {
        self.sender = sender
        self.to = to
        self.cc = cc
        self.bcc = bcc
        self.replyTo = replyTo
        self.subject = subject
        self.textBody = textBody
        self.htmlBody = htmlBody
        self.headers = headers
    }

    /// Every envelope recipient: to, cc and bcc.
    public var allRecipients: [String] { to + cc + bcc }

    enum CodingKeys: String, CodingKey {
        case sender = "from", to, cc, bcc, replyTo = "reply_to", subject
        case textBody = "body", htmlBody = "html", headers
    }
}

public struct MailHeader: Codable, Sendable, Equatable {
    public var name: String
    public var value: String
    public init(name: String, value: String) { self.name = name; self.value = value }
}
