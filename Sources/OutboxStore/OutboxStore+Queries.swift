import FoundationEssentials
import OutboxModel
import OutboxSQLite

extension OutboxStore {
    static let summaryColumns = """
        m.id, m.uid, m.channel, m.state, m.destination, m.group_uid, m.attempts, m.max_attempts, m.priority,
        m.created_at, m.updated_at, m.not_before, m.next_attempt_at, m.finished_at, m.last_error, m.remote_id,
        m.idempotency_key, mc.recipients, mc.subject, sc.recipient, sc.body, pj.job_name
        """
    static let summaryJoins = """
        LEFT JOIN mail_content mc ON mc.message_id = m.id
        LEFT JOIN sms_content sc ON sc.message_id = m.id
        LEFT JOIN print_job pj ON pj.message_id = m.id
        """

    static func summary(_ row: Row) throws -> MessageSummary {
        let channel = Channel(rawValue: row.string(2)) ?? .mail
        var recipients: [String] = []
        var title = ""
        switch channel {
        case .mail:
            if let json = row.optionalString(17), let r = try? ContentCodec.decodeRecipients(json) {
                recipients = r.to + r.cc + r.bcc
            }
            title = row.string(18)
        case .sms:
            recipients = [row.string(19)]
            title = row.string(20)
        case .print:
            recipients = [row.optionalString(4) ?? "(default)"]
            title = row.string(21)
        }
        return MessageSummary(
            id: row.int64(0), uid: row.string(1), channel: channel,
            state: MessageState(rawValue: row.string(3)) ?? .failed, destination: row.optionalString(4),
            groupUID: row.optionalString(5), recipients: recipients, title: title, attempts: row.int(6),
            maxAttempts: row.int(7), priority: row.int(8), createdAt: row.int64(9), updatedAt: row.int64(10),
            notBefore: row.isNull(11) ? nil : row.int64(11), nextAttemptAt: row.isNull(12) ? nil : row.int64(12),
            finishedAt: row.isNull(13) ? nil : row.int64(13), lastError: row.optionalString(14),
            remoteID: row.optionalString(15), idempotencyKey: row.optionalString(16))
    }

    /// Messages matching `filter`, newest first.
    public func history(_ filter: HistoryFilter) throws -> [MessageSummary] {
        let (whereClause, values) = Self.conditions(filter)
        var sql: String
        var bound: [any SQLiteBindable] = []
        if let search = filter.search {
            catchUpSearchIndex()
            // Drive from the index in rowid order so a LIMIT stops early on common words.
            sql = "SELECT \(Self.summaryColumns) FROM message_search s JOIN message m ON m.id = s.rowid \(Self.summaryJoins) WHERE message_search MATCH ?"
            bound.append(HistoryFilter.ftsQuery(search))
            if !whereClause.isEmpty { sql += " AND " + whereClause }
            sql += " ORDER BY s.rowid DESC"
        } else {
            sql = "SELECT \(Self.summaryColumns) FROM message m \(Self.summaryJoins)"
            if !whereClause.isEmpty { sql += " WHERE " + whereClause }
            sql += " ORDER BY m.id DESC"
        }
        bound += values
        if let limit = filter.limit { sql += " LIMIT \(max(0, limit))" }
        do {
            return try db.rows(sql, bound, Self.summary)
        } catch let error as SQLiteError where filter.search != nil && error.primaryCode == 1 {
            throw OutboxError.usage("--search '\(filter.search!)' is not a valid search: \(error.message)")
        } catch {
            throw StoreError.map(error, path: path)
        }
    }

    /// The WHERE conditions of a filter (without the full-text part).
    static func conditions(_ filter: HistoryFilter) -> (String, [any SQLiteBindable]) {
        var parts: [String] = []
        var values: [any SQLiteBindable] = []
        if !filter.states.isEmpty {
            parts.append("m.state IN (\(Array(repeating: "?", count: filter.states.count).joined(separator: ",")))")
            values += filter.states.map(\.rawValue)
        }
        if !filter.channels.isEmpty {
            parts.append("m.channel IN (\(Array(repeating: "?", count: filter.channels.count).joined(separator: ",")))")
            values += filter.channels.map(\.rawValue)
        }
        if !filter.ids.isEmpty {
            parts.append("m.id IN (\(Array(repeating: "?", count: filter.ids.count).joined(separator: ",")))")
            values += filter.ids.map { $0 as any SQLiteBindable }
        }
        if let since = filter.since { parts.append("m.created_at >= ?"); values.append(since) }
        if let until = filter.until { parts.append("m.created_at < ?"); values.append(until) }
        if let recipient = filter.recipient {
            parts.append("""
                (instr(lower(mc.recipients), lower(?)) > 0 OR instr(sc.recipient, ?) > 0
                 OR (m.channel = 'print' AND instr(lower(coalesce(m.destination, '')), lower(?)) > 0))
                """)
            values += [recipient, recipient.filter { !" -()".contains($0) }, recipient]
        }
        return (parts.joined(separator: " AND "), values)
    }

    public func summary(id: Int64) throws -> MessageSummary? {
        try db.first("SELECT \(Self.summaryColumns) FROM message m \(Self.summaryJoins) WHERE m.id = ?", [id], Self.summary)
    }

    /// Everything about one message, or `nil` if there is no such id.
    public func detail(id: Int64) throws -> MessageDetail? {
        try read {
            guard let summary = try summary(id: id) else { return nil }
            let content = try loadContent(id: id, channel: summary.channel)
            let lease = try db.first("SELECT deadline, lease_owner, lease_until FROM message WHERE id = ?", [id]) {
                ($0.isNull(0) ? nil : $0.int64(0), $0.optionalString(1), $0.isNull(2) ? nil : $0.int64(2))
            }
            return MessageDetail(summary: summary, content: content, attachments: try attachments(id: id),
                                 attempts: try attempts(id: id), printResult: try printResult(id: id),
                                 deadline: lease?.0, leaseOwner: lease?.1, leaseUntil: lease?.2)
        }
    }

    public func attachments(id: Int64) throws -> [AttachmentInfo] {
        try db.rows("SELECT position, role, filename, mime_type, size, sha256 FROM attachment WHERE message_id = ? ORDER BY position", [id]) {
            AttachmentInfo(position: $0.int(0), role: AttachmentRole(rawValue: $0.string(1)) ?? .attachment,
                           filename: $0.string(2), mimeType: $0.string(3), size: $0.int(4), sha256: $0.string(5))
        }
    }

    public func attempts(id: Int64) throws -> [AttemptRecord] {
        try db.rows("""
            SELECT number, started_at, finished_at, outcome, error_class, code, detail, remote_id, worker, duration_ms
            FROM attempt WHERE message_id = ? ORDER BY id
            """, [id]) {
            AttemptRecord(number: $0.int(0), startedAt: $0.int64(1), finishedAt: $0.isNull(2) ? nil : $0.int64(2),
                          outcome: AttemptOutcome(rawValue: $0.string(3)) ?? .failed,
                          errorClass: $0.optionalString(4).flatMap(ErrorClass.init(rawValue:)), code: $0.optionalString(5),
                          detail: $0.optionalString(6), remoteID: $0.optionalString(7), worker: $0.optionalString(8),
                          durationMilliseconds: $0.optionalInt(9))
        }
    }

    public func printResult(id: Int64) throws -> StoredPrintResult? {
        try db.first("""
            SELECT cups_job_id, printer, job_state, state_reasons, pages, pdf_path, pdf_sha256, updated_at
            FROM print_result WHERE message_id = ?
            """, [id]) {
            StoredPrintResult(PrintResult(cupsJobID: $0.optionalInt(0), printer: $0.optionalString(1), jobState: $0.optionalString(2),
                                          stateReasons: $0.optionalString(3), pages: $0.optionalInt(4), pdfPath: $0.optionalString(5),
                                          pdfSHA256: $0.optionalString(6)),
                              updatedAt: $0.int64(7))
        }
    }

    /// The channel content of a message.
    public func loadContent(id: Int64, channel: Channel) throws -> MessageContent {
        switch channel {
        case .mail:
            guard let mail = try db.first("""
                SELECT sender, recipients, subject, text_body, html_body, headers FROM mail_content WHERE message_id = ?
                """, [id], { row -> MailContent in
                let r = try ContentCodec.decodeRecipients(row.string(1))
                let headers = try row.optionalString(5).map { try ContentCodec.decode([MailHeader].self, $0) } ?? []
                return MailContent(sender: row.optionalString(0), to: r.to, cc: r.cc, bcc: r.bcc, replyTo: r.replyTo,
                                   subject: row.string(2), textBody: row.optionalString(3), htmlBody: row.optionalString(4),
                                   headers: headers)
            }) else { throw OutboxError(.software, "message \(id) has no mail content") }
            return .mail(mail)
        case .sms:
            guard let sms = try db.first("""
                SELECT sender, recipient, body, encoding, segments FROM sms_content WHERE message_id = ?
                """, [id], { row -> SMSContent in
                var sms = SMSContent(sender: row.optionalString(0), recipient: row.string(1), body: row.string(2))
                sms.encoding = SMSEncoding(rawValue: row.string(3)) ?? sms.encoding
                sms.segments = row.int(4)
                return sms
            }) else { throw OutboxError(.software, "message \(id) has no SMS content") }
            return .sms(sms)
        case .print:
            guard let spec = try db.first("SELECT spec FROM print_job WHERE message_id = ?", [id], { $0.string(0) }) else {
                throw OutboxError(.software, "message \(id) has no print job")
            }
            return .print(try ContentCodec.decode(PrintJob.self, spec))
        }
    }
}
