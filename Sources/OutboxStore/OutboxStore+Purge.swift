import OutboxModel
import OutboxSQLite

extension OutboxStore {
    /// Messages `purge` would remove: finished (sent, failed, cancelled — or the given states)
    /// before `olderThan`.
    public func purgeCandidates(olderThan: Milliseconds, states: [MessageState]) throws -> [MessageSummary] {
        let states = (states.isEmpty ? [MessageState.sent, .failed, .cancelled] : states).filter { $0.isFinal || $0 == .draft }
        guard !states.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: states.count).joined(separator: ",")
        return try db.rows("""
            SELECT \(Self.summaryColumns) FROM message m \(Self.summaryJoins)
            WHERE m.state IN (\(marks)) AND coalesce(m.finished_at, m.updated_at) < ? ORDER BY m.id
            """, states.map(\.rawValue) + [olderThan], Self.summary)
    }

    /// Deletes finished messages older than `olderThan` in bounded batches (each its own short
    /// transaction, so workers and other commands are never blocked for long), then the blobs
    /// nobody refers to any more. Returns how many messages were removed.
    @discardableResult
    public func purge(olderThan: Milliseconds, states: [MessageState], batchSize: Int = 500) throws -> Int {
        let states = (states.isEmpty ? [MessageState.sent, .failed, .cancelled] : states).filter { $0.isFinal || $0 == .draft }
        guard !states.isEmpty else { return 0 }
        let marks = Array(repeating: "?", count: states.count).joined(separator: ",")
        var removed = 0
        while true {
            let count = try write {
                let batch = try db.rows("""
                    SELECT id, channel FROM message WHERE state IN (\(marks)) AND coalesce(finished_at, updated_at) < ?
                    ORDER BY id LIMIT ?
                    """, states.map(\.rawValue) + [olderThan, batchSize]) { ($0.int64(0), Channel(rawValue: $0.string(1)) ?? .mail) }
                for (id, channel) in batch { try deleteMessage(id: id, channel: channel) }
                return batch.count
            }
            removed += count
            if count < batchSize { break }
        }
        try write { try deleteUnreferencedBlobs() }
        return removed
    }
}
