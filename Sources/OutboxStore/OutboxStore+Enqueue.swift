import Foundation
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
        // Hash files before taking the write lock; identical files are hashed once.
        var hashed: [String: HashedFile] = [:]
        for file in messages.flatMap(\.files) where hashed[file.path] == nil {
            hashed[file.path] = try Self.hashFile(file.path)
        }
        return try write {
            if let key = messages.first?.idempotencyKey, let ids = try existingIDs(forKey: key) {
                return EnqueueResult(ids: ids, existing: true)
            }
            let group = messages.count > 1 ? UUID().uuidString.lowercased() : nil
            var ids: [Int64] = []
            for (index, message) in messages.enumerated() {
                ids.append(try insert(message, key: index == 0 ? message.idempotencyKey : nil, group: group,
                                      hashed: hashed, now: now))
            }
            return EnqueueResult(ids: ids, existing: false)
        }
    }

    /// Stores many independent messages in one transaction (bulk `import`, benchmarks).
    /// Returns one result per message, in order.
    public func enqueueBatch(_ batch: [[NewMessage]], now: Milliseconds = Timestamp.now()) throws -> [EnqueueResult] {
        var hashed: [String: HashedFile] = [:]
        for file in batch.joined().flatMap(\.files) where hashed[file.path] == nil {
            hashed[file.path] = try Self.hashFile(file.path)
        }
        return try write {
            var results: [EnqueueResult] = []
            results.reserveCapacity(batch.count)
            for messages in batch {
                if let key = messages.first?.idempotencyKey, let ids = try existingIDs(forKey: key) {
                    results.append(EnqueueResult(ids: ids, existing: true))
                    continue
                }
                let group = messages.count > 1 ? UUID().uuidString.lowercased() : nil
                var ids: [Int64] = []
                for (index, message) in messages.enumerated() {
                    ids.append(try insert(message, key: index == 0 ? message.idempotencyKey : nil, group: group,
                                          hashed: hashed, now: now))
                }
                results.append(EnqueueResult(ids: ids, existing: false))
            }
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

    private func insert(_ message: NewMessage, key: String?, group: String?, hashed: [String: HashedFile],
                        now: Milliseconds) throws -> Int64 {
        guard message.state == .queued || message.state == .draft else {
            throw OutboxError(.software, "a new message must be queued or a draft, not \(message.state.rawValue)")
        }
        let uid = UUID().uuidString.lowercased()
        let start = max(now, message.notBefore ?? now)
        let queued = message.state == .queued
        try db.run("""
            INSERT INTO message (uid, channel, state, destination, group_uid, priority, not_before, next_attempt_at,
                                 max_attempts, deadline, idempotency_key, created_at, updated_at, queued_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [uid, message.channel.rawValue, message.state.rawValue, message.destination, group, message.priority,
                  message.notBefore, queued ? start : nil, message.retry.maxAttempts,
                  queued ? start + message.retry.deadlineMilliseconds : nil, key, now, now, queued ? now : nil])
        let id = db.lastInsertRowID
        try insertContent(message.content, id: id)
        for (position, file) in message.files.enumerated() {
            guard let hashedFile = hashed[file.path] else { continue }
            try storeBlob(hashedFile)
            try db.run("""
                INSERT INTO attachment (message_id, position, role, filename, mime_type, size, sha256)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [id, position, file.role.rawValue, file.filename, file.mimeType, hashedFile.size, hashedFile.sha256])
        }
        return id
    }

    /// Writes the channel's content row and indexes it for search.
    func insertContent(_ content: MessageContent, id: Int64) throws {
        switch content {
        case .mail(let mail):
            let recipients = ContentCodec.Recipients(to: mail.to, cc: mail.cc, bcc: mail.bcc, replyTo: mail.replyTo)
            try db.run("""
                INSERT INTO mail_content (message_id, sender, recipients, subject, text_body, html_body, headers)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [id, mail.sender, ContentCodec.encode(recipients), mail.subject, mail.textBody, mail.htmlBody,
                      mail.headers.isEmpty ? nil : ContentCodec.encode(mail.headers)])
        case .sms(let sms):
            try db.run("""
                INSERT INTO sms_content (message_id, sender, recipient, body, encoding, segments) VALUES (?, ?, ?, ?, ?, ?)
                """, [id, sms.sender, sms.recipient, sms.body, sms.encoding.rawValue, sms.segments])
        case .print(let job):
            try db.run("INSERT INTO print_job (message_id, job_name, spec) VALUES (?, ?, ?)",
                       [id, job.info.jobName, ContentCodec.encode(job)])
        }
        try db.run("INSERT INTO message_search (rowid, subject, body, recipients, job_name) VALUES (?, ?, ?, ?, ?)",
                   [id] + SearchFields(content).values)
    }

    /// Removes a message's content row and its search entry (for `edit` and `purge`).
    func deleteContent(id: Int64, channel: Channel) throws {
        let content = try loadContent(id: id, channel: channel)
        try db.run("INSERT INTO message_search (message_search, rowid, subject, body, recipients, job_name) VALUES ('delete', ?, ?, ?, ?, ?)",
                   [id] + SearchFields(content).values)
        let table = switch channel { case .mail: "mail_content"; case .sms: "sms_content"; case .print: "print_job" }
        try db.run("DELETE FROM \(table) WHERE message_id = ?", [id])
    }
}
