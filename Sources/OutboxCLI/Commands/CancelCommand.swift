import OutboxModel
import OutboxStore

struct CancelCommand: Command {
    static let name = "cancel"
    static let abstract = "cancel queued messages or drafts"
    static let arguments = "ID…"
    static let options: [OptionSpec] = []

    static func validate(_ args: ParsedArguments) throws(OutboxError) {
        guard !(try args.ids()).isEmpty else { throw .usage("cancel needs message ids (see `outbox history --state queued`)") }
    }

    static func run(_ args: ParsedArguments, _ context: Context) throws -> ExitCode {
        for m in try context.store().cancel(try args.ids()) { context.output.line("\(m.id) cancelled") }
        return .ok
    }
}
