import OutboxModel
import OutboxStore

/// The JSON shapes of messages (times in ISO 8601).
enum MessageJSON {
    static func time(_ ms: Milliseconds?) -> String? { ms.map(Timestamp.iso8601) }

    static func summary(_ m: MessageSummary) -> [String: Any?] {
        [
            "id": Int(m.id), "uid": m.uid, "channel": m.channel.rawValue, "state": m.state.rawValue,
            "destination": m.destination, "group": m.groupUID, "recipients": m.recipients, "title": m.title,
            "attempts": m.attempts, "max_attempts": m.maxAttempts, "priority": m.priority,
            "created_at": time(m.createdAt), "updated_at": time(m.updatedAt), "not_before": time(m.notBefore),
            "next_attempt_at": m.state == .queued ? time(m.nextAttemptAt) : nil, "finished_at": time(m.finishedAt),
            "last_error": m.lastError, "remote_id": m.remoteID, "key": m.idempotencyKey,
        ]
    }

    static func content(_ content: MessageContent) -> [String: Any?] {
        switch content {
        case .mail(let mail):
            return ["from": mail.sender, "to": mail.to, "cc": mail.cc, "bcc": mail.bcc, "reply_to": mail.replyTo,
                    "subject": mail.subject, "body": mail.textBody, "html": mail.htmlBody,
                    "headers": mail.headers.map { ["name": $0.name, "value": $0.value] }]
        case .sms(let sms):
            return ["from": sms.sender, "to": sms.recipient, "body": sms.body, "encoding": sms.encoding.rawValue, "segments": sms.segments]
        case .print(let job):
            var object: [String: Any?] = [
                "job_name": job.info.jobName, "output": job.info.outputType.rawValue, "duplex": job.info.duplex.rawValue,
                "orientation": job.info.orientation?.rawValue, "paper": job.info.paper, "copies": job.info.copies,
                "pages": job.info.pageRanges,
            ]
            switch job.content {
            case .items(let items): object["items"] = items
            case .renderer(let r):
                object["formatters"] = r.formatters.map { ["kind": $0.kind.rawValue, "start_page": $0.startPage, "font": $0.font,
                                                           "line_spacing": $0.lineSpacing, "chars": $0.text?.count] as [String: Any?] }
                object["header"] = ["left": r.header.left, "center": r.header.center, "right": r.header.right] as [String: Any?]
                object["footer"] = ["left": r.footer.left, "center": r.footer.center, "right": r.footer.right] as [String: Any?]
                object["overlay"] = r.overlay
                object["insets"] = [r.insets.top, r.insets.left, r.insets.bottom, r.insets.right]
            }
            return object
        }
    }

    static func attachment(_ a: AttachmentInfo) -> [String: Any?] {
        ["position": a.position, "role": a.role.rawValue, "filename": a.filename, "mime_type": a.mimeType, "size": a.size, "sha256": a.sha256]
    }

    static func attempt(_ a: AttemptRecord) -> [String: Any?] {
        ["number": a.number, "started_at": time(a.startedAt), "finished_at": time(a.finishedAt), "outcome": a.outcome.rawValue,
         "error_class": a.errorClass?.rawValue, "code": a.code, "detail": a.detail, "remote_id": a.remoteID,
         "worker": a.worker, "duration_ms": a.durationMilliseconds]
    }

    static func printResult(_ r: StoredPrintResult) -> [String: Any?] {
        ["cups_job_id": r.cupsJobID, "printer": r.printer, "job_state": r.jobState, "state_reasons": r.stateReasons,
         "pages": r.pages, "pdf_path": r.pdfPath, "pdf_sha256": r.pdfSHA256, "updated_at": time(r.updatedAt)]
    }

    static func detail(_ d: MessageDetail) -> [String: Any?] {
        var object = summary(d.summary)
        object["content"] = content(d.content)
        object["attachments"] = d.attachments.map(attachment)
        object["attempt_log"] = d.attempts.map(attempt)
        object["print_result"] = d.printResult.map(printResult)
        object["deadline"] = time(d.deadline)
        object["lease_owner"] = d.leaseOwner
        object["lease_until"] = time(d.leaseUntil)
        return object
    }
}
