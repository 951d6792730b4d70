import OutboxModel
import OutboxSQLite

/// The full-text index is kept off the enqueue path (Migrations/0002_deferred_search.sql):
/// tokenising a 1 KB body costs more than storing the message. Messages up to a mark are in
/// `message_search`; those above it are indexed in id order by the worker when it is idle, by
/// a small enqueue when nothing else is waiting, and by `history --search` before it searches.
extension OutboxStore {
    /// Enqueues that leave at most this many messages unindexed index them in the same
    /// transaction: a single `outbox mail` is searchable at once and nothing waits for later.
    static let inlineIndexLimit: Int64 = 256

    /// How many messages one indexing transaction takes, so a worker never holds the write
    /// lock for long.
    public static let indexChunk = 2_000

    /// The highest message id in the search index (every lower id is in it too).
    func searchIndexedThrough() throws -> Int64 {
        try db.first("SELECT CAST(value AS INTEGER) FROM outbox_meta WHERE key = 'search_indexed_through'", [], { $0.int64(0) }) ?? 0
    }

    /// How many stored messages are not in the search index yet.
    public func searchBacklog() throws -> Int64 {
        try read {
            let maxID = try db.first("SELECT coalesce(max(id), 0) FROM message", [], { $0.int64(0) }) ?? 0
            return max(0, maxID - (try searchIndexedThrough()))
        }
    }

    /// Indexes up to `limit` waiting messages in one write transaction; returns how many
    /// message ids it moved past (0 when the index is complete).
    @discardableResult
    public func indexWaitingMessages(limit: Int = OutboxStore.indexChunk) throws -> Int {
        try write { try indexWaiting(limit: limit) }
    }

    /// Brings the search index up to date, a chunk per transaction, before a search. Returns
    /// false when it could not: the database was busy for more than a moment, read-only, or
    /// failing; the search then covers what is indexed, and `searchBacklog` says how much is not.
    /// Nothing waiting costs one read, no lock.
    @discardableResult
    public func catchUpSearchIndex() -> Bool {
        do {
            guard try searchBacklog() > 0 else { return true }
            return try db.withBusyTimeout(milliseconds: 2_000) {
                while try indexWaitingMessages() > 0 {}
                return true
            }
        } catch {
            return false
        }
    }

    /// The indexing step, inside the caller's write transaction: the next `limit` ids above
    /// the mark, their content read a channel at a time.
    func indexWaiting(limit: Int, after mark: Int64? = nil) throws -> Int {
        let mark = try mark ?? searchIndexedThrough()
        guard let last = try db.first("""
            SELECT max(id) FROM (SELECT id FROM message WHERE id > ? ORDER BY id LIMIT ?)
            """, [mark, limit], { $0.isNull(0) ? nil : $0.int64(0) }) ?? nil else { return 0 }
        let range: [any SQLiteBindable] = [mark, last]
        // A row whose content cannot be read back (damaged outside Outbox) is left out rather
        // than stopping every later search; the mark still moves past it.
        var entries: [(id: Int64, content: MessageContent)?] = []
        entries += try db.rows("""
            SELECT m.id, c.sender, c.recipients, c.subject, c.text_body, c.html_body
            FROM message m JOIN mail_content c ON c.message_id = m.id WHERE m.id > ? AND m.id <= ?
            """, range) { row in
            // Headers are not searched: the entry needs only these fields (see SearchFields).
            guard let r = try? ContentCodec.decodeRecipients(row.string(2)) else { return nil }
            return (row.int64(0), .mail(MailContent(sender: row.optionalString(1), to: r.to, cc: r.cc, bcc: r.bcc, replyTo: r.replyTo,
                                                    subject: row.string(3), textBody: row.optionalString(4), htmlBody: row.optionalString(5))))
        }
        entries += try db.rows("""
            SELECT m.id, c.sender, c.recipient, c.body FROM message m JOIN sms_content c ON c.message_id = m.id
            WHERE m.id > ? AND m.id <= ?
            """, range) { row in
            (row.int64(0), .sms(SMSContent(sender: row.optionalString(1), recipient: row.string(2), body: row.string(3))))
        }
        entries += try db.rows("""
            SELECT m.id, c.spec FROM message m JOIN print_job c ON c.message_id = m.id WHERE m.id > ? AND m.id <= ?
            """, range) { row in
            guard let job = try? ContentCodec.decode(PrintJob.self, row.string(1)) else { return nil }
            return (row.int64(0), .print(job))
        }
        for case let entry? in entries { try index(entry.content, id: entry.id) }
        try db.run("UPDATE outbox_meta SET value = ? WHERE key = 'search_indexed_through'", [String(last)])
        return Int(last - mark)
    }

    /// Indexes the messages an enqueue just wrote when they (and anything before them) are few.
    func indexIfFewWaiting(lastID: Int64) throws {
        let mark = try searchIndexedThrough()
        guard lastID - mark <= Self.inlineIndexLimit else { return }
        _ = try indexWaiting(limit: Int(Self.inlineIndexLimit), after: mark)
    }

    /// Whether `id` is in the index (its entry must then follow its content).
    func isSearchIndexed(id: Int64) throws -> Bool {
        id <= (try searchIndexedThrough())
    }

    func index(_ content: MessageContent, id: Int64) throws {
        try db.run("INSERT INTO message_search (rowid, subject, body, recipients, job_name) VALUES (?, ?, ?, ?, ?)",
                   [id] + SearchFields(content).values)
    }

    /// Removes `content` from the index; the index is contentless, so the values must be
    /// exactly those it was indexed with.
    func unindex(_ content: MessageContent, id: Int64) throws {
        try db.run("INSERT INTO message_search (message_search, rowid, subject, body, recipients, job_name) VALUES ('delete', ?, ?, ?, ?, ?)",
                   [id] + SearchFields(content).values)
    }
}
