import OutboxModel

/// A message in `submitted`, as handed to `Sink.followUp`.
public struct SubmittedMessage: Sendable {
    public let messageID: Int64
    public let uid: String
    public let destination: String?
    /// The remote id the sink returned when it accepted the message.
    public let remoteID: String?
    public let submittedAt: Milliseconds

    public init(messageID: Int64, uid: String, destination: String?, remoteID: String?, submittedAt: Milliseconds) {
        self.messageID = messageID
        self.uid = uid
        self.destination = destination
        self.remoteID = remoteID
        self.submittedAt = submittedAt
    }
}

/// What a follow-up found: still pending (with fresh details), delivered, or failed for good.
public struct FollowUp: Sendable, Equatable {
    public enum Outcome: String, Sendable { case pending, delivered, undelivered }
    public var outcome: Outcome
    public var code: String?
    public var detail: String?
    public var printResult: PrintResult?

    public init(outcome: Outcome, code: String? = nil, detail: String? = nil, printResult: PrintResult? = nil) {
        self.outcome = outcome
        self.code = code
        self.detail = detail
        self.printResult = printResult
    }
}

/// A delivery report pushed by a gateway (Kannel's dlr-url), matched to a message by uid.
public struct DeliveryReport: Sendable, Equatable {
    public var uid: String
    public var outcome: FollowUp.Outcome
    public var code: String?
    public var detail: String?

    public init(uid: String, outcome: FollowUp.Outcome, code: String? = nil, detail: String? = nil) {
        self.uid = uid
        self.outcome = outcome
        self.code = code
        self.detail = detail
    }
}
