import OutboxModel

/// A message a worker holds the lease on, with everything needed to deliver it.
///
/// `claimToken` is the fence: every write about this delivery names it, and the store ignores
/// the write once another claim (or lease recovery) has moved the message on.
public struct ClaimedMessage: Sendable {
    public var id: Int64
    public var uid: String
    public var channel: Channel
    public var destination: String?
    public var priority: Int
    /// Attempts already spent in the current budget; this delivery is number `attempts + 1`.
    public var attempts: Int
    public var maxAttempts: Int
    public var deadline: Milliseconds?
    public var claimToken: Int64
    public var lostLeases: Int
    public var createdAt: Milliseconds
    public var leaseUntil: Milliseconds
    public var content: MessageContent
    public var attachments: [AttachmentInfo]

    public var attemptNumber: Int { attempts + 1 }
}
