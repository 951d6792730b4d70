import FoundationEssentials
import OutboxModel
import OutboxSQLite

extension OutboxStore {
    // MARK: - Sink health

    /// Records a sink going down or coming back, for `status` and for other worker processes.
    /// `since` keeps its value while the state stays the same, so it says when it last changed.
    public func setSinkState(channel: Channel, sink: String, offline: Bool, lastError: String?, nextProbeAt: Milliseconds?,
                             now: Milliseconds = Timestamp.now()) throws {
        try write {
            try db.run("""
                INSERT INTO sink_state (channel, sink, state, since, last_error, next_probe_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (channel, sink) DO UPDATE SET
                    since = CASE WHEN sink_state.state = excluded.state THEN sink_state.since ELSE excluded.since END,
                    state = excluded.state, last_error = coalesce(excluded.last_error, CASE WHEN excluded.state = 'ok' THEN NULL ELSE sink_state.last_error END),
                    next_probe_at = excluded.next_probe_at
                """, [channel.rawValue, sink, offline ? "offline" : "ok", now, lastError, nextProbeAt])
        }
    }

    // MARK: - Submitted messages

    /// Messages in `submitted` for `channels`, oldest first, for follow-ups.
    public func submitted(channels: [Channel], limit: Int = 100) throws -> [SubmittedRow] {
        guard !channels.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: channels.count).joined(separator: ",")
        return try db.rows("""
            SELECT id, uid, channel, destination, remote_id, updated_at FROM message INDEXED BY message_state
            WHERE state = 'submitted' AND channel IN (\(marks)) ORDER BY id LIMIT ?
            """, channels.map(\.rawValue) + [limit]) {
            SubmittedRow(id: $0.int64(0), uid: $0.string(1), channel: Channel(rawValue: $0.string(2)) ?? .mail,
                         destination: $0.optionalString(3), remoteID: $0.optionalString(4), submittedAt: $0.int64(5))
        }
    }

    /// Applies what a follow-up or a pushed delivery report says about message `id` (or, with
    /// `id == nil`, the message with `uid`). Only a `submitted` message moves: a late report
    /// never takes a final state backwards. An unknown uid changes nothing.
    public func applyReport(id: Int64? = nil, uid: String? = nil, outcome: ReportOutcome, code: String?, detail: String?,
                            printResult: PrintResult? = nil, worker: String?, now: Milliseconds = Timestamp.now()) throws -> ReportEffect {
        try write {
            let found: (Int64, String, Int)?
            if let id {
                found = try db.first("SELECT id, state, attempts FROM message WHERE id = ?", [id]) { ($0.int64(0), $0.string(1), $0.int(2)) }
            } else if let uid {
                found = try db.first("SELECT id, state, attempts FROM message WHERE uid = ?", [uid]) { ($0.int64(0), $0.string(1), $0.int(2)) }
            } else {
                found = nil
            }
            guard let (messageID, state, attempts) = found else { return .unknown }
            if state == MessageState.sending.rawValue { return .early }
            guard state == MessageState.submitted.rawValue else { return .ignored }
            if let printResult { try upsertPrintResult(messageID, printResult, now: now) }
            switch outcome {
            case .pending:
                try db.run("UPDATE message SET updated_at = ? WHERE id = ? AND state = 'submitted'", [now, messageID])
                return .updated
            case .delivered, .undelivered:
                let delivered = outcome == .delivered
                let error = delivered ? nil : [code, detail].compactMap { $0 }.joined(separator: ": ")
                try db.run("""
                    UPDATE message SET state = ?, finished_at = ?, updated_at = ?, last_error = coalesce(?, last_error)
                    WHERE id = ? AND state = 'submitted'
                    """, [delivered ? "sent" : "failed", now, now, error, messageID])
                try insertAttempt(messageID, number: max(attempts, 1), startedAt: now, finishedAt: now,
                                  outcome: delivered ? .delivered : .undelivered, errorClass: delivered ? nil : .permanent,
                                  code: code, detail: detail, remoteID: nil, worker: worker)
                return delivered ? .delivered : .undelivered
            }
        }
    }

    // MARK: - Print results and kept files

    /// Writes (or refreshes) the `print_result` row; fields not given keep their old values.
    func upsertPrintResult(_ id: Int64, _ r: PrintResult, now: Milliseconds) throws {
        try db.run("""
            INSERT INTO print_result (message_id, cups_job_id, printer, job_state, state_reasons, pages, pdf_path, pdf_sha256, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (message_id) DO UPDATE SET
                cups_job_id = coalesce(excluded.cups_job_id, cups_job_id), printer = coalesce(excluded.printer, printer),
                job_state = coalesce(excluded.job_state, job_state), state_reasons = coalesce(excluded.state_reasons, state_reasons),
                pages = coalesce(excluded.pages, pages), pdf_path = coalesce(excluded.pdf_path, pdf_path),
                pdf_sha256 = coalesce(excluded.pdf_sha256, pdf_sha256), updated_at = excluded.updated_at
            """, [id, r.cupsJobID, r.printer, r.jobState, r.stateReasons, r.pages, r.pdfPath, r.pdfSHA256, now])
    }

    /// Stores a file a sink produced (the rendered PDF) with the message, once: the same bytes
    /// kept again (a resubmission) add nothing.
    func keepFile(_ id: Int64, _ file: NewAttachment, hashed: HashedFile) throws {
        if try db.scalar("SELECT 1 FROM attachment WHERE message_id = ? AND role = ? AND sha256 = ?",
                         [id, file.role.rawValue, hashed.sha256]) != nil { return }
        try storeBlob(hashed)
        let position = (try db.scalar("SELECT max(position) FROM attachment WHERE message_id = ?", [id]) ?? -1) + 1
        try db.run("""
            INSERT INTO attachment (message_id, position, role, filename, mime_type, size, sha256) VALUES (?, ?, ?, ?, ?, ?, ?)
            """, [id, position, file.role.rawValue, file.filename, file.mimeType, hashed.size, hashed.sha256])
    }
}
