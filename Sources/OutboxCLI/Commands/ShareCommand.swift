import FoundationEssentials
import OutboxModel
import OutboxStore

/// The seeds' action sheet: one item to several channels at once, in one transaction.
struct ShareCommand: Command {
    static let name = "share"
    static let abstract = "send one file to several channels at once (mail, SMS, print)"
    static let arguments = "FILE"
    static func needsDelivery(_ args: ParsedArguments) -> Bool { args.has("print") }
    static let options: [OptionSpec] = [
        .value("mail", "ADDR", "mail the file as an attachment to ADDR (repeatable)", repeatable: true),
        .value("sms", "NUMBER", "text the file's contents (UTF-8 text only) to NUMBER (repeatable)", repeatable: true),
        .value("print", "DEST", "print the file on DEST (pdf or a CUPS queue)"),
        .value("subject", "TEXT", "mail subject (default: the file name)"),
    ] + ComposeOptions.specs

    static func validate(_ args: ParsedArguments) throws(OutboxError) {
        guard args.positionals.count == 1 else { throw .usage("share takes exactly one FILE") }
        guard args.has("mail") || args.has("sms") || args.has("print") else {
            throw .usage("share needs at least one of --mail ADDR, --sms NUMBER, --print DEST")
        }
    }

    static func run(_ args: ParsedArguments, _ context: Context) throws -> ExitCode {
        let config = try context.config()
        defer { TemporaryFiles.removeAll() }
        let file = try FileArgument.parse(args.positionals[0])
        guard let type = DocumentType.sniff(try FileArgument.head(file.path)) else {
            throw OutboxError.data("cannot share \(args.positionals[0]): unknown document type (outbox shares PDF, PNG, JPEG and UTF-8 text)")
        }
        var messages: [NewMessage] = []
        var base = ParsedArguments()
        for name in ["draft", "json"] where args.has(name) { base.flags.insert(name) }
        for name in ["at", "key", "priority"] { if let v = args.value(name) { base.values[name] = [v] } }
        if !args.all("mail").isEmpty {
            var mailArgs = base
            mailArgs.values["to"] = args.all("mail")
            mailArgs.values["subject"] = [args.value("subject") ?? file.filename]
            if type == .text {
                mailArgs.values["body"] = [try MailComposer.readText(file.path, what: "file")]
            } else {
                mailArgs.values["body"] = ["\(file.filename) is attached."]
                mailArgs.values["attach"] = ["\(file.path);name=\(file.filename);type=\(file.mimeType ?? type.mimeType)"]
            }
            messages.append(try MailComposer.message(mailArgs, config: config, readStdinBody: false))
        }
        if !args.all("sms").isEmpty {
            guard type == .text else {
                throw OutboxError.data("cannot share a \(type.rawValue.uppercased()) by SMS: only text files can be texted")
            }
            var smsArgs = base
            smsArgs.values["to"] = args.all("sms")
            smsArgs.values["body"] = [try MailComposer.readText(file.path, what: "file")]
            messages += try SMSComposer.messages(smsArgs, config: config, readStdinBody: false)
        }
        if let destination = args.value("print") {
            var printArgs = base
            printArgs.positionals = [file.path]
            printArgs.values["to"] = [destination]
            printArgs.values["job-name"] = [file.filename]
            let message = try PrintComposer.message(printArgs, config: config)
            try PrintDestinations.check(destination, config: config)
            messages.append(message)
        }
        if let key = args.value("key") {
            for index in messages.indices { messages[index].idempotencyKey = index == 0 ? key : nil }
        }
        let result = try context.store().enqueue(messages)
        try ComposeOptions.report(result, args: args, context: context)
        return .ok
    }
}
