import OutboxModel
import OutboxStore

struct HistoryCommand: Command {
    static let name = "history"
    static let aliases = ["list"]
    static let abstract = "list messages, newest first, with filters"
    static let options: [OptionSpec] = [
        .value("state", "STATE", "only this state (draft, queued, sending, submitted, sent, failed, cancelled; repeatable)", repeatable: true),
        .value("channel", "CHANNEL", "only mail, sms or print (repeatable)", repeatable: true),
        .value("since", "TIME", "created at or after TIME (e.g. 2026-11-01, 7d for seven days ago)"),
        .value("until", "TIME", "created before TIME"),
        .value("to", "TEXT", "a recipient or printer containing TEXT"),
        .value("search", "WORDS", "full-text search in subjects, bodies, recipients and job names"),
        .value("limit", "N", "at most N messages (default 50; 0 for all)"),
        .flag("json", "one JSON object per line"),
    ]

    static func validate(_ args: ParsedArguments) throws(OutboxError) {
        _ = try args.states()
        _ = try args.channels()
        guard args.positionals.isEmpty else { throw .usage("history takes no arguments (did you mean `outbox show \(args.positionals[0])`?)") }
    }

    static func filter(_ args: ParsedArguments) throws(OutboxError) -> HistoryFilter {
        let limit = try args.int("limit", range: 0...10_000_000) ?? 50
        return HistoryFilter(states: try args.states(), channels: try args.channels(),
                             since: try args.time("since", relativeSign: -1), until: try args.time("until", relativeSign: -1),
                             recipient: args.value("to"), search: args.value("search"), limit: limit == 0 ? nil : limit)
    }

    static func run(_ args: ParsedArguments, _ context: Context) throws -> ExitCode {
        let filter = try filter(args)
        let messages = try context.store().history(filter)
        if filter.search != nil, let waiting = try? context.store().searchBacklog(), waiting > 0 {
            context.output.note("note: up to \(waiting) newer message\(waiting == 1 ? " is" : "s are") not in the search index yet (the database was busy); search again to include them")
        }
        if args.has("json") {
            for message in messages { context.output.json(MessageJSON.summary(message)) }
            return .ok
        }
        if messages.isEmpty {
            context.output.note("no messages match")
            return .ok
        }
        context.output.line(HistoryTable.render(messages))
        return .ok
    }
}

/// The human table of `history`, `drafts` and `retry --dry-run`.
enum HistoryTable {
    static func render(_ messages: [MessageSummary]) -> String {
        var table = Table(["ID", "CHANNEL", "STATE", "TO", "SUBJECT / TEXT / JOB", "CREATED", "TRIES", "LAST ERROR"])
        for m in messages {
            var state = m.state.rawValue
            if m.state == .queued, m.attempts > 0 { state = "retrying" }
            if m.state == .queued, let next = m.nextAttemptAt, next > Timestamp.now() + 1000 { state += " @" + Timestamp.short(next) }
            let to = m.recipients.count > 1 ? "\(m.recipients[0]) +\(m.recipients.count - 1)" : (m.recipients.first ?? "")
            table.add([String(m.id), m.channel.rawValue, state, to, m.title,
                       Timestamp.short(m.createdAt), "\(m.attempts)/\(m.maxAttempts)", m.lastError ?? ""])
        }
        return table.render()
    }
}
