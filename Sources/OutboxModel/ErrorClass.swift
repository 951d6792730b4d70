/// How a sink failure is handled by the worker.
public enum ErrorClass: String, Codable, Sendable, CaseIterable {
    /// Will never succeed (SMTP 5xx, HTTP 4xx, invalid number): `failed` at once.
    case permanent
    /// May succeed later (SMTP 4xx, HTTP 5xx, timeouts): retry with backoff, spending an attempt.
    case transient
    /// The sink cannot be reached at all: stays queued, no attempt spent, sink paused.
    case offline
    /// Handed over but the outcome is unknown: retried with the same uid so receivers can de-duplicate.
    case uncertain
}

/// The outcome recorded on an attempt row.
public enum AttemptOutcome: String, Codable, Sendable, CaseIterable {
    case sent, submitted, retry, failed, offline, uncertain
    /// The worker holding the lease vanished (crash, kill -9); recorded by the one that recovered it.
    case lostLease = "lost_lease"
    /// Given back unsent at shutdown.
    case released
    /// Late reports for `submitted` messages.
    case delivered, undelivered
}
