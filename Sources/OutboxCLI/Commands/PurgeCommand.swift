import OutboxModel
import OutboxStore

struct PurgeCommand: Command {
    static let name = "purge"
    static let abstract = "delete finished messages older than a given age, in small batches"
    static let options: [OptionSpec] = [
        .value("older-than", "AGE", "finished more than AGE ago (e.g. 30d, 12h) or before a date"),
        .value("state", "STATE", "only this state (sent, failed, cancelled, draft; default the three final states; repeatable)", repeatable: true),
        .flag("dry-run", "list what would be deleted, change nothing"),
        .flag("json", "one JSON object per line for --dry-run"),
    ]

    static func validate(_ args: ParsedArguments) throws(OutboxError) {
        guard args.has("older-than") else { throw .usage("purge needs --older-than AGE (e.g. 30d)") }
        for state in try args.states() where !(state.isFinal || state == .draft) {
            throw .usage("purge removes only finished messages or drafts, not \(state.rawValue) ones")
        }
    }

    static func run(_ args: ParsedArguments, _ context: Context) throws -> ExitCode {
        let text = args.value("older-than")!
        let cutoff: Milliseconds
        if let age = DurationText.milliseconds(text) { cutoff = Timestamp.now() - age }
        else if let date = Timestamp.parse(text) { cutoff = date }
        else { throw OutboxError.usage("--older-than '\(text)' is not an age (30d, 12h) or a date") }
        let store = try context.store()
        if args.has("dry-run") {
            let candidates = try store.purgeCandidates(olderThan: cutoff, states: try args.states())
            if args.has("json") { for m in candidates { context.output.json(MessageJSON.summary(m)) } }
            else if candidates.isEmpty { context.output.note("nothing to purge") }
            else { context.output.line("would delete \(candidates.count) message\(candidates.count == 1 ? "" : "s"):\n" + HistoryTable.render(candidates)) }
            return .ok
        }
        let removed = try store.purge(olderThan: cutoff, states: try args.states())
        context.output.line("deleted \(removed) message\(removed == 1 ? "" : "s")")
        return .ok
    }
}
