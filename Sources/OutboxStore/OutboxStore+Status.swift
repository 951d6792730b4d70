import OutboxModel
import OutboxSQLite

/// Counts per channel and state, for `status`.
public struct QueueStatus: Sendable, Equatable {
    public var counts: [Channel: [MessageState: Int]]
    /// The oldest message still waiting to go out (queued or sending), per channel.
    public var oldestWaiting: [Channel: Milliseconds]
    /// The next time a queued message becomes due, per channel.
    public var nextDue: [Channel: Milliseconds]
    public var sinks: [SinkHealth]
}

/// What the workers last learned about a sink (the `sink_state` table).
public struct SinkHealth: Sendable, Equatable {
    public var channel: Channel
    public var sink: String
    public var offline: Bool
    public var since: Milliseconds
    public var lastError: String?
    public var nextProbeAt: Milliseconds?

    public init(channel: Channel, sink: String, offline: Bool, since: Milliseconds, lastError: String?, nextProbeAt: Milliseconds?) {
        self.channel = channel
        self.sink = sink
        self.offline = offline
        self.since = since
        self.lastError = lastError
        self.nextProbeAt = nextProbeAt
    }
}

extension OutboxStore {
    public func status() throws -> QueueStatus {
        try read {
            var counts: [Channel: [MessageState: Int]] = [:]
            for row in try db.rows("SELECT channel, state, count(*) FROM message GROUP BY channel, state", [], {
                ($0.string(0), $0.string(1), $0.int(2))
            }) {
                guard let channel = Channel(rawValue: row.0), let state = MessageState(rawValue: row.1) else { continue }
                counts[channel, default: [:]][state] = row.2
            }
            var oldest: [Channel: Milliseconds] = [:]
            var nextDue: [Channel: Milliseconds] = [:]
            for channel in Channel.allCases {
                if let t = try db.scalar("SELECT min(coalesce(queued_at, created_at)) FROM message WHERE channel = ? AND state IN ('queued', 'sending')", [channel.rawValue]) {
                    oldest[channel] = Milliseconds(t)
                }
                if let t = try db.scalar("SELECT min(next_attempt_at) FROM message WHERE channel = ? AND state = 'queued'", [channel.rawValue]) {
                    nextDue[channel] = Milliseconds(t)
                }
            }
            return QueueStatus(counts: counts, oldestWaiting: oldest, nextDue: nextDue, sinks: try sinkHealth())
        }
    }

    public func sinkHealth() throws -> [SinkHealth] {
        try db.rows("SELECT channel, sink, state, since, last_error, next_probe_at FROM sink_state ORDER BY channel, sink") {
            SinkHealth(channel: Channel(rawValue: $0.string(0)) ?? .mail, sink: $0.string(1), offline: $0.string(2) == "offline",
                       since: $0.int64(3), lastError: $0.optionalString(4), nextProbeAt: $0.isNull(5) ? nil : $0.int64(5))
        }
    }
}
