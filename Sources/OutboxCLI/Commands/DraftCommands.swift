import OutboxModel
import OutboxStore

struct DraftsCommand: Command {
    static let name = "drafts"
    static let abstract = "list drafts"
    static let options: [OptionSpec] = [.flag("json", "one JSON object per line")]

    static func run(_ args: ParsedArguments, _ context: Context) throws -> ExitCode {
        let drafts = try context.store().history(HistoryFilter(states: [.draft]))
        if args.has("json") { for d in drafts { context.output.json(MessageJSON.summary(d)) } }
        else if drafts.isEmpty { context.output.note("no drafts") }
        else { context.output.line(HistoryTable.render(drafts)) }
        return .ok
    }
}
