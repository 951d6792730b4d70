import OutboxModel

/// A row of the attempt ledger.
public struct AttemptRecord: Sendable, Equatable {
    public var number: Int
    public var startedAt: Milliseconds
    public var finishedAt: Milliseconds?
    public var outcome: AttemptOutcome
    public var errorClass: ErrorClass?
    public var code: String?
    public var detail: String?
    public var remoteID: String?
    public var worker: String?
    public var durationMilliseconds: Int?
}
