import OutboxModel
import OutboxStore

struct RetryCommand: Command {
    static let name = "retry"
    static let abstract = "resubmit failed (or cancelled) messages now, keeping their history"
    static let arguments = "ID… | --failed"
    /// `--to` checks the new printer.
    static func needsDelivery(_ args: ParsedArguments) -> Bool { args.has("to") }
    static let options: [OptionSpec] = [
        .flag("failed", "every failed message (narrow with --channel, --since, --until)"),
        .value("channel", "CHANNEL", "with --failed: only this channel (repeatable)", repeatable: true),
        .value("since", "TIME", "with --failed: created at or after TIME"),
        .value("until", "TIME", "with --failed: created before TIME"),
        .value("to", "DEST", "send print jobs to another printer (pdf or a CUPS queue)"),
        .flag("dry-run", "list what would be retried, change nothing"),
        .flag("json", "one JSON object per line"),
    ]

    static func validate(_ args: ParsedArguments) throws(OutboxError) {
        let ids = try args.ids()
        if args.has("failed") == !ids.isEmpty { throw .usage("give message ids or --failed (not both)") }
        if !args.has("failed"), args.has("channel") || args.has("since") || args.has("until") {
            throw .usage("--channel, --since and --until go with --failed")
        }
        _ = try args.channels()
    }

    static func run(_ args: ParsedArguments, _ context: Context) throws -> ExitCode {
        let store = try context.store()
        var targets: [MessageSummary]
        if args.has("failed") {
            targets = try store.history(HistoryFilter(states: [.failed], channels: try args.channels(),
                                                      since: try args.time("since", relativeSign: -1),
                                                      until: try args.time("until", relativeSign: -1)))
        } else {
            targets = try args.ids().map { id in
                guard let m = try store.summary(id: id) else { throw OutboxError.data("no message \(id): see `outbox history` for the ids") }
                return m
            }
        }
        if let destination = args.value("to") {
            if let other = targets.first(where: { $0.channel != .print }) {
                throw OutboxError.usage("--to redirects print jobs only; message \(other.id) is \(other.channel.rawValue)")
            }
            try PrintDestinations.check(destination, config: try context.config())
        }
        if args.has("dry-run") {
            if args.has("json") { for m in targets { context.output.json(MessageJSON.summary(m)) } }
            else if targets.isEmpty { context.output.note("nothing to retry") }
            else { context.output.line("would retry:\n" + HistoryTable.render(targets)) }
            return .ok
        }
        let moved = try store.retry(targets.map(\.id), policies: try context.retryPolicies(), destination: args.value("to"))
        if args.has("json") { for m in moved { context.output.json(["id": Int(m.id), "state": "queued"]) } }
        else if moved.isEmpty { context.output.note("nothing to retry") }
        else { for m in moved { context.output.line("\(m.id) queued again") } }
        return .ok
    }
}
