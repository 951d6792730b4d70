import OutboxModel
import OutboxStore

struct PrintCommand: Command {
    static let name = "print"
    static let abstract = "compose a print job for a CUPS printer or the PDF directory; prints the new id"
    static let arguments = "[FILE…]"
    static func needsDelivery(_ args: ParsedArguments) -> Bool { true }
    static let options = PrintComposer.specs + ComposeOptions.specs
    static let discussion = """
        FILEs are PDF, PNG or JPEG (printed as they are) or one UTF-8 text file; the type is read
        from the content, not the name. Text and HTML are laid out by the page renderer: header,
        footer, overlay, insets on every page, line spacing, TTF/OTF fonts.
        example: outbox print --text-file notes.txt --header-left '{title}' --footer-center 'page {page} of {pages}' --to pdf
        """

    static func run(_ args: ParsedArguments, _ context: Context) throws -> ExitCode {
        defer { TemporaryFiles.removeAll() }
        let config = try context.config()
        let message = try PrintComposer.message(args, config: config)
        try PrintDestinations.check(message.destination ?? config.print.defaultDestination, config: config)
        try PrintDestinations.checkContent(message, config: config)
        let result = try context.store().enqueue([message])
        try ComposeOptions.report(result, args: args, context: context)
        return .ok
    }
}
