import OutboxModel

/// One line of `history`: what, to whom, where it stands.
public struct MessageSummary: Sendable, Equatable {
    public var id: Int64
    public var uid: String
    public var channel: Channel
    public var state: MessageState
    public var destination: String?
    public var groupUID: String?
    /// Recipients (mail, sms) or the printer (print), for display.
    public var recipients: [String]
    /// Subject, the start of the SMS body, or the job name.
    public var title: String
    public var attempts: Int
    public var maxAttempts: Int
    public var priority: Int
    public var createdAt: Milliseconds
    public var updatedAt: Milliseconds
    public var notBefore: Milliseconds?
    public var nextAttemptAt: Milliseconds?
    public var finishedAt: Milliseconds?
    public var lastError: String?
    public var remoteID: String?
    public var idempotencyKey: String?
}
