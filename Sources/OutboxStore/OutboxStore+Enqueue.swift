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
        var hashed: [String: HashedFile] = [:]
        for messages in batch {
            for message in messages {
                for file in message.files where hashed[file.path] == nil {
                    hashed[file.path] = try Self.hashFile(file.path)
                }
            }
        }
        // Past a few thousand messages the transaction's working set outgrows the default cache.
        guard batch.count < 2_000 else {
            do {
                return try db.withCacheSize(kibibytes: 256 * 1024) { try insertBatch(batch, hashed: hashed, now: now) }
            } catch let error as SQLiteError {
                throw StoreError.map(error, path: path)
            }
        }
        return try insertBatch(batch, hashed: hashed, now: now)
    }

    private func insertBatch(_ batch: [[NewMessage]], hashed: [String: HashedFile], now: Milliseconds) throws -> [EnqueueResult] {
        try write {
            var inserter = Inserter(db: db, hashed: hashed, now: now)
            var results: [EnqueueResult] = []
            results.reserveCapacity(batch.count)
            for messages in batch {
                if let key = messages.first?.idempotencyKey, let ids = try existingIDs(forKey: key) {
                    results.append(EnqueueResult(ids: ids, existing: true))
                    continue
                }
                let group = messages.count > 1 ? inserter.uuids.next() : nil
                var ids: [Int64] = []
                ids.reserveCapacity(messages.count)
                for (index, message) in messages.enumerated() {
                    ids.append(try inserter.insert(message, key: index == 0 ? message.idempotencyKey : nil, group: group,
                                                   store: self))
                }
                results.append(EnqueueResult(ids: ids, existing: false))
            }
            if let lastID = results.last(where: { !$0.existing })?.ids.last { try indexIfFewWaiting(lastID: lastID) }
            return results
        }
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
        var inserter = Inserter(db: db, hashed: [:], now: Timestamp.now())
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

/// Inserts the rows of new messages, holding its statements for the whole batch: a message
/// then costs no statement-cache lookups (each hashes the whole SQL text) and binds its values
/// without boxing them.
private struct Inserter {
    let db: Connection
    let hashed: [String: OutboxStore.HashedFile]
    let now: Milliseconds
    var uuids = UUIDGenerator()
    private var prepared: [Statement?] = Array(repeating: nil, count: SQL.allCases.count)

    init(db: Connection, hashed: [String: OutboxStore.HashedFile], now: Milliseconds) {
        self.db = db
        self.hashed = hashed
        self.now = now
    }

    private enum SQL: Int, CaseIterable {
        case message, mail, sms, print, attachment

        var text: String {
            switch self {
            case .message: """
                INSERT INTO message (uid, channel, state, destination, group_uid, priority, not_before, next_attempt_at,
                                     max_attempts, deadline, idempotency_key, created_at, updated_at, queued_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
            case .mail: """
                INSERT INTO mail_content (message_id, sender, recipients, subject, text_body, html_body, headers)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """
            case .sms: """
                INSERT INTO sms_content (message_id, sender, recipient, body, encoding, segments) VALUES (?, ?, ?, ?, ?, ?)
                """
            case .print: "INSERT INTO print_job (message_id, job_name, spec) VALUES (?, ?, ?)"
            case .attachment: """
                INSERT INTO attachment (message_id, position, role, filename, mime_type, size, sha256)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """
            }
        }
    }

    /// The statement for `sql`, reset with its bindings cleared.
    private mutating func statement(_ sql: SQL) throws -> Statement {
        let statement: Statement
        if let cached = prepared[sql.rawValue] { statement = cached } else {
            statement = try db.statement(sql.text)
            prepared[sql.rawValue] = statement
        }
        statement.reset()
        return statement
    }

    mutating func insert(_ message: NewMessage, key: String?, group: String?, store: OutboxStore) throws -> Int64 {
        guard message.state == .queued || message.state == .draft else {
            throw OutboxError(.software, "a new message must be queued or a draft, not \(message.state.rawValue)")
        }
        let start = max(now, message.notBefore ?? now)
        let queued = message.state == .queued
        let row = try statement(.message)
        try row.bind(uuids.next(), at: 1)
        try row.bind(message.channel.rawValue, at: 2)
        try row.bind(message.state.rawValue, at: 3)
        try row.bind(message.destination, at: 4)
        try row.bind(group, at: 5)
        try row.bind(message.priority, at: 6)
        try row.bind(message.notBefore, at: 7)
        try row.bind(queued ? start : nil, at: 8)
        try row.bind(message.retry.maxAttempts, at: 9)
        try row.bind(queued ? start + message.retry.deadlineMilliseconds : nil, at: 10)
        try row.bind(key, at: 11)
        try row.bind(now, at: 12)
        try row.bind(now, at: 13)
        try row.bind(queued ? now : nil, at: 14)
        try row.execute()
        let id = db.lastInsertRowID
        try insertContent(message.content, id: id)
        for (position, file) in message.files.enumerated() {
            guard let hashedFile = hashed[file.path] else { continue }
            try store.storeBlob(hashedFile)
            let attachment = try statement(.attachment)
            try attachment.bind(id, at: 1)
            try attachment.bind(position, at: 2)
            try attachment.bind(file.role.rawValue, at: 3)
            try attachment.bind(file.filename, at: 4)
            try attachment.bind(file.mimeType, at: 5)
            try attachment.bind(hashedFile.size, at: 6)
            try attachment.bind(hashedFile.sha256, at: 7)
            try attachment.execute()
        }
        return id
    }

    /// Writes the channel's content row (search indexing comes later: OutboxStore+SearchIndex).
    mutating func insertContent(_ content: MessageContent, id: Int64) throws {
        switch content {
        case .mail(let mail):
            let recipients = ContentCodec.Recipients(to: mail.to, cc: mail.cc, bcc: mail.bcc, replyTo: mail.replyTo)
            let row = try statement(.mail)
            try row.bind(id, at: 1)
            try row.bind(mail.sender, at: 2)
            try row.bind(ContentCodec.encode(recipients), at: 3)
            try row.bind(mail.subject, at: 4)
            try row.bind(mail.textBody, at: 5)
            try row.bind(mail.htmlBody, at: 6)
            try row.bind(mail.headers.isEmpty ? nil : ContentCodec.encode(mail.headers), at: 7)
            try row.execute()
        case .sms(let sms):
            let row = try statement(.sms)
            try row.bind(id, at: 1)
            try row.bind(sms.sender, at: 2)
            try row.bind(sms.recipient, at: 3)
            try row.bind(sms.body, at: 4)
            try row.bind(sms.encoding.rawValue, at: 5)
            try row.bind(sms.segments, at: 6)
            try row.execute()
        case .print(let job):
            let row = try statement(.print)
            try row.bind(id, at: 1)
            try row.bind(job.info.jobName, at: 2)
            try row.bind(ContentCodec.encode(job), at: 3)
            try row.execute()
        }
    }
}
