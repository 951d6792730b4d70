import FoundationEssentials
import OutboxModel
import OutboxSQLite

/// The result of storing composed messages.
public struct EnqueueResult: Sendable, Equatable {
    public var ids: [Int64]
    /// True when an idempotency key matched: nothing new was written.
    public var existing: Bool
}

extension OutboxStore {
    /// Stores messages composed together (one `mail`, the recipients of one `sms`, one `share`)
    /// in one transaction, with their files. With an idempotency key that is already known, the
    /// existing messages' ids come back and nothing is written.
    public func enqueue(_ messages: [NewMessage], now: Milliseconds = Timestamp.now()) throws -> EnqueueResult {
        try enqueueBatch([messages], now: now)[0]
    }

    /// Stores many independent messages in one transaction (bulk `import`, benchmarks).
    /// Returns one result per message, in order.
    public func enqueueBatch(_ batch: [[NewMessage]], now: Milliseconds = Timestamp.now()) throws -> [EnqueueResult] {
        // Hash files before taking the write lock; identical files are hashed once.
        let hashed = try Self.hashFiles(of: batch)
        var chunks = [batch].makeIterator()
        return try enqueueChunks(now: now, bigCache: batch.count >= 2_000, hashed: hashed) { chunks.next() }
    }

    /// Stores messages handed over a chunk at a time, all in one transaction: a bulk `import`
    /// never holds a whole file's messages. `next` returns the next chunk, or `nil` at the end;
    /// an error thrown by it rolls everything back. Files are hashed as their chunk comes.
    public func enqueueStream(now: Milliseconds = Timestamp.now(), _ next: () throws -> [[NewMessage]]?) throws -> [EnqueueResult] {
        try enqueueChunks(now: now, bigCache: true, hashed: [:]) { try next() }
    }

    private func enqueueChunks(now: Milliseconds, bigCache: Bool, hashed: [String: HashedFile],
                               _ next: () throws -> [[NewMessage]]?) throws -> [EnqueueResult] {
        func insert() throws -> [EnqueueResult] {
            try write {
                var inserter = MessageInserter(db: db, hashed: hashed, now: now)
                var results: [EnqueueResult] = []
                while let chunk = try next() {
                    for (path, file) in try Self.hashFiles(of: chunk, skipping: inserter.hashed) { inserter.hashed[path] = file }
                    try self.insert(chunk, with: &inserter, into: &results)
                }
                if let lastID = results.last(where: { !$0.existing })?.ids.last { try indexIfFewWaiting(lastID: lastID) }
                return results
            }
        }
        // Past a few thousand messages the transaction's working set outgrows the default cache.
        guard bigCache else { return try insert() }
        do {
            return try db.withCacheSize(kibibytes: 256 * 1024) { try insert() }
        } catch let error as SQLiteError {
            throw StoreError.map(error, path: path)
        }
    }

    /// The files of `batch` not in `known`, hashed; identical paths once.
    private static func hashFiles(of batch: [[NewMessage]], skipping known: [String: HashedFile] = [:]) throws -> [String: HashedFile] {
        var hashed: [String: HashedFile] = [:]
        for messages in batch {
            for message in messages {
                for file in message.files where known[file.path] == nil && hashed[file.path] == nil {
                    hashed[file.path] = try hashFile(file.path)
                }
            }
        }
        return hashed
    }

    /// Inserts `batch`, appending one result per entry to `results`, inside the caller's transaction.
    private func insert(_ batch: [[NewMessage]], with inserter: inout MessageInserter, into results: inout [EnqueueResult]) throws {
        results.reserveCapacity(results.count + batch.count)
        // Single messages without key or files wait here (by position) to be written many to a statement.
        var plain: [Int] = []
        func writePlain() throws {
            guard !plain.isEmpty else { return }
            for id in try inserter.insertPlain(plain.lazy.map { batch[$0][0] }) { results.append(EnqueueResult(ids: [id], existing: false)) }
            plain.removeAll(keepingCapacity: true)
        }
        for (position, messages) in batch.enumerated() {
            if messages.count == 1, MessageInserter.isPlain(messages[0], key: messages[0].idempotencyKey, group: nil) {
                plain.append(position)
                continue
            }
            try writePlain()
            if let key = messages.first?.idempotencyKey, let ids = try existingIDs(forKey: key) {
                results.append(EnqueueResult(ids: ids, existing: true))
                continue
            }
            let group = messages.count > 1 ? inserter.uuids.next() : nil
            var ids: [Int64] = []
            ids.reserveCapacity(messages.count)
            for (index, message) in messages.enumerated() {
                ids.append(try inserter.insert(message, key: index == 0 ? message.idempotencyKey : nil, group: group, store: self))
            }
            results.append(EnqueueResult(ids: ids, existing: false))
        }
        try writePlain()
    }

    /// The ids stored under `key` (all messages of its group).
    func existingIDs(forKey key: String) throws -> [Int64]? {
        guard let (id, group) = try db.first("SELECT id, group_uid FROM message WHERE idempotency_key = ?", [key], {
            ($0.int64(0), $0.optionalString(1))
        }) else { return nil }
        guard let group else { return [id] }
        return try db.rows("SELECT id FROM message WHERE group_uid = ? ORDER BY id", [group]) { $0.int64(0) }
    }

    /// Writes the channel's content row, and its search entry when the id is already indexed
    /// (for `edit`).
    func insertContent(_ content: MessageContent, id: Int64) throws {
        var inserter = MessageInserter(db: db, hashed: [:], now: Timestamp.now())
        try inserter.insertContent(content, id: id)
        if try isSearchIndexed(id: id) { try index(content, id: id) }
    }

    /// Removes a message's content row and its search entry (for `edit` and `purge`).
    func deleteContent(id: Int64, channel: Channel) throws {
        if try isSearchIndexed(id: id) { try unindex(try loadContent(id: id, channel: channel), id: id) }
        let table = switch channel { case .mail: "mail_content"; case .sms: "sms_content"; case .print: "print_job" }
        try db.run("DELETE FROM \(table) WHERE message_id = ?", [id])
    }
}
