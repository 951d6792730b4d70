/// What a worker run did, for `outbox worker --once`'s closing line and exit code.
public struct WorkerSummary: Sendable, Equatable {
    public var sent = 0
    /// Accepted by a sink that reports back later (a CUPS job, an SMS awaiting its report).
    public var submitted = 0
    public var retryScheduled = 0
    public var failed = 0
    /// Messages put back unsent because their sink was offline (no attempt spent).
    public var offline = 0
    /// Messages given back unsent at shutdown.
    public var released = 0
    /// Sinks found offline during the run, as `channel/name` (`--once` exits 75 when any).
    public var offlineSinks: [String] = []

    public init() {}

    /// Messages claimed and settled in this run.
    public var total: Int { sent + submitted + retryScheduled + failed + offline + released }

    /// "3 sent, 1 retry scheduled, 0 failed, 2 offline".
    public var line: String {
        var parts = ["\(sent) sent"]
        if submitted > 0 { parts.append("\(submitted) submitted") }
        parts += ["\(retryScheduled) retry scheduled", "\(failed) failed", "\(offline) offline"]
        if released > 0 { parts.append("\(released) released") }
        if !offlineSinks.isEmpty { parts.append("sinks offline: " + offlineSinks.joined(separator: ", ")) }
        return parts.joined(separator: ", ")
    }
}
