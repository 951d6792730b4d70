import OutboxModel
import OutboxStore

struct SMSCommand: Command {
    static let name = "sms"
    static let abstract = "compose a text message, one per recipient; prints the new ids"
    static let options = SMSComposer.specs + ComposeOptions.specs
    static let discussion = """
        Numbers are normalised to E.164. The encoding (GSM-7 or UCS-2) and segment count are
        decided now and shown on standard error.
        example: outbox sms --to +4915112345678 --to 0151 2345679 --body 'Running 10 minutes late'
        """

    static func run(_ args: ParsedArguments, _ context: Context) throws -> ExitCode {
        let messages = try SMSComposer.messages(args, config: try context.config(), readStdinBody: true)
        let result = try context.store().enqueue(messages)
        try ComposeOptions.report(result, args: args, context: context)
        if case .sms(let sms)? = messages.first?.content, !args.has("json") {
            context.output.note("outbox: \(SMSComposer.describe(sms.body))")
        }
        return .ok
    }
}
