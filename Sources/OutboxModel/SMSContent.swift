/// One text message to one recipient (the seeds' MFMessageComposeViewController, fanned out).
public struct SMSContent: Codable, Sendable, Equatable {
    /// Sender id; `nil` uses the sink's configured sender.
    public var sender: String?
    /// E.164, e.g. `+4915112345678`.
    public var recipient: String
    public var body: String
    public var encoding: SMSEncoding
    public var segments: Int

    public init(sender: String? = nil, recipient: String, body: String) {
        self.sender = sender
        self.recipient = recipient
        self.body = body
        let analysis = SMSEncoding.analyze(body)
        self.encoding = analysis.encoding
        self.segments = analysis.segments
    }

    enum CodingKeys: String, CodingKey { case sender = "from", recipient = "to", body, encoding, segments }
}
