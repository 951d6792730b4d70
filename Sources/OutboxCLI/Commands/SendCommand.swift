import OutboxModel
import OutboxStore

struct SendCommand: Command {
    static let name = "send"
    static let abstract = "queue drafts for delivery"
    static let arguments = "ID…"
    static let options: [OptionSpec] = []

    static func validate(_ args: ParsedArguments) throws(OutboxError) {
        guard !(try args.ids()).isEmpty else { throw .usage("send needs the ids of drafts (see `outbox drafts`)") }
    }

    static func run(_ args: ParsedArguments, _ context: Context) throws -> ExitCode {
        let sent = try context.store().send(drafts: try args.ids(), policies: try context.retryPolicies())
        for m in sent { context.output.line("\(m.id) queued") }
        return .ok
    }
}
