import OutboxModel
import OutboxStore

struct DiscardCommand: Command {
    static let name = "discard"
    static let abstract = "delete drafts"
    static let arguments = "ID…"
    static let options: [OptionSpec] = []

    static func validate(_ args: ParsedArguments) throws(OutboxError) {
        guard !(try args.ids()).isEmpty else { throw .usage("discard needs the ids of drafts (see `outbox drafts`)") }
    }

    static func run(_ args: ParsedArguments, _ context: Context) throws -> ExitCode {
        for m in try context.store().discard(drafts: try args.ids()) { context.output.line("\(m.id) discarded") }
        return .ok
    }
}
