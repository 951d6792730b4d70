import OutboxModel

/// The outcome of one claimed delivery, as the worker hands it to the store.
///
/// The store, not the worker, decides the next state from it (with the retry policy, the
/// attempt budget and the deadline), so that decision lives in one place: `complete(_:)`.
public struct DeliveryCompletion: Sendable {
    public enum Result: Sendable, Equatable {
        /// Delivered for good.
        case sent
        /// Accepted; the final word comes later (follow-up or delivery report).
        case submitted
        /// Transient failure: retry with backoff, spending an attempt.
        case transient(retryAfterSeconds: Double?)
        /// Handed over, outcome unknown: retry with the same uid, spending an attempt.
        case uncertain(retryAfterSeconds: Double?)
        /// Permanent failure: `failed` now.
        case permanent
        /// The sink could not be reached: back to `queued`, no attempt spent.
        case offline
        /// Given back unsent at shutdown: back to `queued`, no attempt spent.
        case released
    }

    public var messageID: Int64
    public var claimToken: Int64
    public var result: Result
    public var startedAt: Milliseconds
    public var finishedAt: Milliseconds
    public var code: String?
    public var detail: String?
    public var remoteID: String?
    public var worker: String
    public var printResult: PrintResult?
    /// A file the sink produced (a rendered PDF) to store with the message as an attachment.
    public var keep: NewAttachment?

    public init(messageID: Int64, claimToken: Int64, result: Result, startedAt: Milliseconds, finishedAt: Milliseconds,
                code: String? = nil, detail: String? = nil, remoteID: String? = nil, worker: String,
                printResult: PrintResult? = nil, keep: NewAttachment? = nil) {
        self.messageID = messageID
        self.claimToken = claimToken
        self.result = result
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.code = code
        self.detail = detail
        self.remoteID = remoteID
        self.worker = worker
        self.printResult = printResult
        self.keep = keep
    }
}

/// What the store did with a `DeliveryCompletion`.
public enum CompletionEffect: Sendable, Equatable {
    case sent
    case submitted
    /// Back to `queued`, due at `nextAttemptAt`.
    case retryScheduled(nextAttemptAt: Milliseconds)
    /// `failed`: permanent, attempts exhausted or deadline passed.
    case failed
    /// Back to `queued` with no attempt spent (offline or released).
    case requeued
    /// The claim token no longer matched (lease lost and taken over, or already completed):
    /// nothing was written.
    case stale
}
