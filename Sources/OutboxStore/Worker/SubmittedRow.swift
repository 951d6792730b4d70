import OutboxModel

/// A message in `submitted`, as the store lists it for follow-ups.
public struct SubmittedRow: Sendable, Equatable {
    public var id: Int64
    public var uid: String
    public var channel: Channel
    public var destination: String?
    public var remoteID: String?
    public var submittedAt: Milliseconds
}

/// The news a follow-up or a pushed delivery report brings about a `submitted` message.
public enum ReportOutcome: String, Sendable {
    case pending, delivered, undelivered
}

/// What the store did with a report.
public enum ReportEffect: Sendable, Equatable {
    /// `submitted` → `sent`.
    case delivered
    /// `submitted` → `failed`.
    case undelivered
    /// Still submitted; details (print result) refreshed.
    case updated
    /// The message is already final (or not submitted): a late report never moves it back.
    case ignored
    /// The message is still `sending`: the gateway reported before the worker recorded the
    /// submission. The caller keeps the report and applies it again once that is committed.
    case early
    /// No message has that uid.
    case unknown
}
