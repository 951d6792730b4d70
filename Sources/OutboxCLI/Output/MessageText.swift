import OutboxModel
import OutboxStore

/// The human view of `show`.
enum MessageText {
    static func render(_ d: MessageDetail) -> String {
        let m = d.summary
        var lines: [String] = []
        func field(_ name: String, _ value: String?) {
            if let value, !value.isEmpty { lines.append(TerminalWidth.padded(name, to: 12) + value) }
        }
        field("message", "\(m.id) (\(m.channel.rawValue)) uid \(m.uid)")
        var state = m.state.rawValue
        if m.state == .queued, let next = m.nextAttemptAt { state += ", due \(Timestamp.iso8601(next))" }
        field("state", state)
        field("attempts", "\(m.attempts) of \(m.maxAttempts)")
        field("created", Timestamp.iso8601(m.createdAt))
        field("not before", m.notBefore.map(Timestamp.iso8601))
        field("deadline", d.deadline.map(Timestamp.iso8601))
        field("finished", m.finishedAt.map(Timestamp.iso8601))
        field("destination", m.destination)
        field("key", m.idempotencyKey)
        field("remote id", m.remoteID)
        field("last error", m.lastError)
        field("lease", d.leaseOwner.map { "\($0) until \(d.leaseUntil.map(Timestamp.iso8601) ?? "?")" })
        lines.append("")
        switch d.content {
        case .mail(let mail):
            field("from", mail.sender ?? "(config mail.from)")
            field("to", mail.to.joined(separator: ", "))
            field("cc", mail.cc.joined(separator: ", "))
            field("bcc", mail.bcc.joined(separator: ", "))
            field("reply-to", mail.replyTo.joined(separator: ", "))
            field("subject", mail.subject)
            for header in mail.headers { field(header.name, header.value) }
            if let text = mail.textBody { lines.append(""); lines.append(text) }
            if let html = mail.htmlBody { lines.append(""); lines.append("[HTML body, \(html.utf8.count) bytes]") }
        case .sms(let sms):
            field("from", sms.sender ?? "(gateway default)")
            field("to", sms.recipient)
            field("encoding", "\(sms.encoding.rawValue), \(sms.segments) segment\(sms.segments == 1 ? "" : "s")")
            lines.append("")
            lines.append(sms.body)
        case .print(let job):
            field("job name", job.info.jobName)
            field("printer", m.destination ?? "(default)")
            field("options", "\(job.info.paper), \(job.info.outputType.rawValue), duplex \(job.info.duplex.rawValue), \(job.info.orientation?.rawValue ?? "auto orientation"), \(job.info.copies) cop\(job.info.copies == 1 ? "y" : "ies")\(job.info.pageRanges.map { ", pages \($0)" } ?? "")")
            switch job.content {
            case .items(let items): field("content", "\(items.count) file\(items.count == 1 ? "" : "s") printed as they are")
            case .renderer(let r):
                field("content", r.formatters.map { "\($0.kind.rawValue) (\($0.text?.count ?? 0) chars) from page \($0.startPage + 1)" }.joined(separator: "; "))
                field("overlay", r.overlay)
            }
        }
        if !d.attachments.isEmpty {
            lines.append("")
            var table = Table(["#", "ROLE", "NAME", "TYPE", "SIZE", "SHA256"])
            table.maxWidth = 64
            for a in d.attachments { table.add([String(a.position), a.role.rawValue, a.filename, a.mimeType, String(a.size), a.sha256]) }
            lines.append(table.render())
        }
        if !d.attempts.isEmpty {
            lines.append("")
            var table = Table(["TRY", "STARTED", "OUTCOME", "CLASS", "CODE", "REMOTE ID", "MS", "DETAIL"])
            table.maxWidth = 60
            for a in d.attempts {
                table.add([String(a.number), Timestamp.iso8601(a.startedAt), a.outcome.rawValue, a.errorClass?.rawValue ?? "",
                           a.code ?? "", a.remoteID ?? "", a.durationMilliseconds.map(String.init) ?? "", a.detail ?? ""])
            }
            lines.append(table.render())
        } else {
            lines.append("")
            lines.append("no attempts yet")
        }
        if let r = d.printResult {
            lines.append("")
            field("cups job", r.cupsJobID.map { "\($0) on \(r.printer ?? "?")" })
            field("job state", [r.jobState, r.stateReasons].compactMap { $0 }.joined(separator: " — "))
            field("pages", r.pages.map(String.init))
            field("pdf", r.pdfPath)
            field("pdf sha256", r.pdfSHA256)
        }
        return lines.joined(separator: "\n")
    }
}
