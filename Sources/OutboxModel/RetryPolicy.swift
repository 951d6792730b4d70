/// Capped exponential backoff with full jitter, per channel.
public struct RetryPolicy: Sendable, Equatable {
    public var maxAttempts: Int
    public var baseSeconds: Double
    public var maxDelaySeconds: Double
    public var deadlineHours: Double

    public init(maxAttempts: Int, baseSeconds: Double, maxDelaySeconds: Double, deadlineHours: Double) {
        self.maxAttempts = maxAttempts
        self.baseSeconds = baseSeconds
        self.maxDelaySeconds = maxDelaySeconds
        self.deadlineHours = deadlineHours
    }

    public static func defaults(for channel: Channel) -> RetryPolicy {
        switch channel {
        case .mail: RetryPolicy(maxAttempts: 10, baseSeconds: 60, maxDelaySeconds: 3600, deadlineHours: 120)
        case .sms: RetryPolicy(maxAttempts: 8, baseSeconds: 30, maxDelaySeconds: 1800, deadlineHours: 24)
        case .print: RetryPolicy(maxAttempts: 5, baseSeconds: 30, maxDelaySeconds: 900, deadlineHours: 24)
        }
    }

    public var deadlineMilliseconds: Milliseconds { Milliseconds(deadlineHours * 3_600_000) }

    /// The delay before attempt `attempt + 1` after `attempt` attempts have failed:
    /// uniform in [0, min(cap, base · 2^(attempt-1))] ("full jitter"), but never less than a
    /// server's `Retry-After`.
    public func delay(afterAttempt attempt: Int, retryAfterSeconds: Double? = nil,
                      random: (ClosedRange<Double>) -> Double = { Double.random(in: $0) }) -> Milliseconds {
        let exponent = min(max(attempt - 1, 0), 30)
        let ceiling = min(maxDelaySeconds, baseSeconds * Double(1 << exponent))
        var seconds = random(0...max(ceiling, 0))
        if let retryAfterSeconds { seconds = max(seconds, retryAfterSeconds) }
        return Milliseconds(seconds * 1000)
    }
}
