import OutboxModel
import OutboxSQLite

/// Inserts the rows of new messages, holding its statements for the whole batch: a message
/// then costs no statement-cache lookups (each hashes the whole SQL text) and binds its values
/// without boxing them.
///
/// Runs of plain messages (no key, no files) are written `rowsPerStatement` rows to an
/// INSERT: each statement opens a cursor on the table and on each of its indexes, and in a
/// bulk enqueue that was the larger part of the cost of a row.
struct MessageInserter {
    static let rowsPerStatement = 128

    let db: Connection
    /// The hashes of the files being stored, by path.
    var hashed: [String: OutboxStore.HashedFile]
    let now: Milliseconds
    var uuids = UUIDGenerator()
    /// Prepared statements by table and rows per statement.
    private var prepared: [Table: [Int: Statement]] = [:]

    init(db: Connection, hashed: [String: OutboxStore.HashedFile], now: Milliseconds) {
        self.db = db
        self.hashed = hashed
        self.now = now
    }

    private enum Table: CaseIterable {
        case message, mail, sms, print, attachment

        var columns: (insert: String, count: Int) {
            switch self {
            case .message: ("""
                INSERT INTO message (uid, channel, state, destination, group_uid, priority, not_before, next_attempt_at,
                                     max_attempts, deadline, idempotency_key, created_at, updated_at, queued_at) VALUES
                """, 14)
            case .mail: ("INSERT INTO mail_content (message_id, sender, recipients, subject, text_body, html_body, headers) VALUES", 7)
            case .sms: ("INSERT INTO sms_content (message_id, sender, recipient, body, encoding, segments) VALUES", 6)
            case .print: ("INSERT INTO print_job (message_id, job_name, spec) VALUES", 3)
            case .attachment: ("INSERT INTO attachment (message_id, position, role, filename, mime_type, size, sha256) VALUES", 7)
            }
        }

        init(_ channel: Channel) {
            switch channel { case .mail: self = .mail; case .sms: self = .sms; case .print: self = .print }
        }
    }

    /// The statement inserting `rows` rows into `table`, reset with its bindings cleared.
    private mutating func statement(_ table: Table, rows: Int = 1) throws -> Statement {
        if let cached = prepared[table]?[rows] {
            cached.reset()
            return cached
        }
        let (insert, count) = table.columns
        let row = "(" + Array(repeating: "?", count: count).joined(separator: ", ") + ")"
        let statement = try db.statement(insert + " " + Array(repeating: row, count: rows).joined(separator: ", "))
        prepared[table, default: [:]][rows] = statement
        return statement
    }

    /// Whether `message` can be written in a multi-row run.
    static func isPlain(_ message: NewMessage, key: String?, group: String?) -> Bool {
        key == nil && group == nil && message.files.isEmpty
    }

    /// Writes plain messages (see `isPlain`), many rows to a statement; returns their ids in order.
    mutating func insertPlain<Messages: RandomAccessCollection<NewMessage>>(_ messages: Messages) throws -> [Int64]
    where Messages.Index == Int {
        var ids: [Int64] = []
        ids.reserveCapacity(messages.count)
        var start = messages.startIndex
        while messages.endIndex - start >= Self.rowsPerStatement {
            let row = try statement(.message, rows: Self.rowsPerStatement)
            for offset in 0..<Self.rowsPerStatement {
                try bindMessage(messages[start + offset], key: nil, group: nil, to: row, at: Int32(offset * 14))
            }
            try row.execute()
            // One statement on an AUTOINCREMENT table: its rows get consecutive ids, in order.
            let last = db.lastInsertRowID
            ids += (last - Int64(Self.rowsPerStatement) + 1)...last
            start += Self.rowsPerStatement
        }
        for index in start..<messages.endIndex { ids.append(try insertRow(messages[index], key: nil, group: nil)) }
        // Content rows, a channel at a time (positions, not copies of the messages).
        let byChannel = Dictionary(grouping: messages.indices) { messages[$0].channel }
        for (channel, positions) in byChannel {
            let table = Table(channel)
            var first = 0
            while positions.count - first >= Self.rowsPerStatement {
                let statement = try statement(table, rows: Self.rowsPerStatement)
                for offset in 0..<Self.rowsPerStatement {
                    let index = positions[first + offset]
                    try bindContent(messages[index].content, id: ids[index - messages.startIndex], to: statement,
                                    at: Int32(offset * table.columns.count))
                }
                try statement.execute()
                first += Self.rowsPerStatement
            }
            for index in positions[first...] { try insertContent(messages[index].content, id: ids[index - messages.startIndex]) }
        }
        return ids
    }

    /// Writes one message with its content and files.
    mutating func insert(_ message: NewMessage, key: String?, group: String?, store: OutboxStore) throws -> Int64 {
        let id = try insertRow(message, key: key, group: group)
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
        let row = try statement(Table(content.channel))
        try bindContent(content, id: id, to: row, at: 0)
        try row.execute()
    }

    private mutating func insertRow(_ message: NewMessage, key: String?, group: String?) throws -> Int64 {
        let row = try statement(.message)
        try bindMessage(message, key: key, group: group, to: row, at: 0)
        try row.execute()
        return db.lastInsertRowID
    }

    /// Binds the 14 values of a message row after parameter `offset`.
    private mutating func bindMessage(_ message: NewMessage, key: String?, group: String?, to row: Statement, at offset: Int32) throws {
        guard message.state == .queued || message.state == .draft else {
            throw OutboxError(.software, "a new message must be queued or a draft, not \(message.state.rawValue)")
        }
        let start = max(now, message.notBefore ?? now)
        let queued = message.state == .queued
        try row.bind(uuids.next(), at: offset + 1)
        try row.bind(message.channel.rawValue, at: offset + 2)
        try row.bind(message.state.rawValue, at: offset + 3)
        try row.bind(message.destination, at: offset + 4)
        try row.bind(group, at: offset + 5)
        try row.bind(message.priority, at: offset + 6)
        try row.bind(message.notBefore, at: offset + 7)
        try row.bind(queued ? start : nil, at: offset + 8)
        try row.bind(message.retry.maxAttempts, at: offset + 9)
        try row.bind(queued ? start + message.retry.deadlineMilliseconds : nil, at: offset + 10)
        try row.bind(key, at: offset + 11)
        try row.bind(now, at: offset + 12)
        try row.bind(now, at: offset + 13)
        try row.bind(queued ? now : nil, at: offset + 14)
    }

    /// Binds the values of a content row (its table's column count) after parameter `offset`.
    private func bindContent(_ content: MessageContent, id: Int64, to row: Statement, at offset: Int32) throws {
        try row.bind(id, at: offset + 1)
        switch content {
        case .mail(let mail):
            let recipients = ContentCodec.Recipients(to: mail.to, cc: mail.cc, bcc: mail.bcc, replyTo: mail.replyTo)
            try row.bind(mail.sender, at: offset + 2)
            try row.bind(ContentCodec.encode(recipients), at: offset + 3)
            try row.bind(mail.subject, at: offset + 4)
            try row.bind(mail.textBody, at: offset + 5)
            try row.bind(mail.htmlBody, at: offset + 6)
            try row.bind(mail.headers.isEmpty ? nil : ContentCodec.encode(mail.headers), at: offset + 7)
        case .sms(let sms):
            try row.bind(sms.sender, at: offset + 2)
            try row.bind(sms.recipient, at: offset + 3)
            try row.bind(sms.body, at: offset + 4)
            try row.bind(sms.encoding.rawValue, at: offset + 5)
            try row.bind(sms.segments, at: offset + 6)
        case .print(let job):
            try row.bind(job.info.jobName, at: offset + 2)
            try row.bind(ContentCodec.encode(job), at: offset + 3)
        }
    }
}
