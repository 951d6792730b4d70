import OutboxModel

/// Pauses a sink that cannot be reached, so its messages stay queued without spending attempts
/// and one dead sink neither spins nor blocks the other channels; probes it with capped
/// exponential backoff until it answers.
///
/// A value type changed only on the worker's store queue.
struct CircuitBreaker {
    enum State: Equatable {
        case closed
        case open(since: Milliseconds, lastError: String, nextProbeAt: Milliseconds, backoff: Milliseconds)
    }

    private(set) var state: State = .closed
    let initialBackoff: Milliseconds
    let maximumBackoff: Milliseconds

    init(initialBackoff: Milliseconds = 1_000, maximumBackoff: Milliseconds = 60_000) {
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
    }

    var isOpen: Bool { state != .closed }

    var nextProbeAt: Milliseconds? {
        if case .open(_, _, let next, _) = state { return next }
        return nil
    }

    /// The sink was found offline. True when this opened the breaker (log "down" only then).
    mutating func trip(error: String, now: Milliseconds) -> Bool {
        if case .open(let since, _, let next, let backoff) = state {
            state = .open(since: since, lastError: error, nextProbeAt: next, backoff: backoff)
            return false
        }
        state = .open(since: now, lastError: error, nextProbeAt: now + initialBackoff, backoff: initialBackoff)
        return true
    }

    /// A probe failed: wait twice as long (up to the cap) before the next one.
    mutating func probeFailed(error: String, now: Milliseconds) {
        guard case .open(let since, _, _, let backoff) = state else { return }
        let next = min(maximumBackoff, backoff * 2)
        state = .open(since: since, lastError: error, nextProbeAt: now + next, backoff: next)
    }

    /// The sink answered. True when this closed an open breaker (log "up" only then).
    mutating func close() -> Bool {
        defer { state = .closed }
        return isOpen
    }
}
