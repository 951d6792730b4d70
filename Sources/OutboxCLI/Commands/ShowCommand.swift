import OutboxModel
import OutboxStore

struct ShowCommand: Command {
    static let name = "show"
    static let abstract = "show one message: content, attachments, every attempt, print result"
    static let arguments = "ID"
    static let options: [OptionSpec] = [.flag("json", "one JSON object")]

    static func validate(_ args: ParsedArguments) throws(OutboxError) {
        guard args.positionals.count == 1 else { throw .usage("show takes one message ID") }
        _ = try args.ids()
    }

    static func run(_ args: ParsedArguments, _ context: Context) throws -> ExitCode {
        let id = try args.ids()[0]
        guard let detail = try context.store().detail(id: id) else {
            throw OutboxError.data("no message \(id): see `outbox history` for the ids")
        }
        if args.has("json") {
            context.output.json(MessageJSON.detail(detail))
        } else {
            context.output.line(MessageText.render(detail))
        }
        return .ok
    }
}
