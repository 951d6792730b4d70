import OutboxModel
import OutboxStore

struct MailCommand: Command {
    static let name = "mail"
    static let abstract = "compose a mail and queue it; prints the new id"
    static let options = MailComposer.specs + ComposeOptions.specs
    static let discussion = """
        With no --body, --body-file or --html-file the body is read from standard input.
        example: outbox mail --to ada@example.org --subject 'Minutes' --body-file minutes.txt --attach minutes.pdf
        """

    static func run(_ args: ParsedArguments, _ context: Context) throws -> ExitCode {
        defer { TemporaryFiles.removeAll() }
        let message = try MailComposer.message(args, config: try context.config(), readStdinBody: true)
        let result = try context.store().enqueue([message])
        try ComposeOptions.report(result, args: args, context: context)
        return .ok
    }
}
