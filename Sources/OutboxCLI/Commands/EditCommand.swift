import OutboxModel
import OutboxStore

/// Replaces fields of a draft. Flags not given keep the draft's current values.
struct EditCommand: Command {
    static let name = "edit"
    static let abstract = "change a draft (flags as for mail, sms or print; others keep their values)"
    static let arguments = "ID"
    static let options: [OptionSpec] = {
        var seen = Set<String>()
        return (MailComposer.specs + SMSComposer.specs + PrintComposer.specs).filter { seen.insert($0.name).inserted }
    }()

    static func validate(_ args: ParsedArguments) throws(OutboxError) {
        guard args.positionals.count == 1 else { throw .usage("edit takes one draft ID, then the fields to change") }
        _ = try args.ids()
    }

    static func run(_ args: ParsedArguments, _ context: Context) throws -> ExitCode {
        let config = try context.config()
        let store = try context.store()
        let id = try args.ids()[0]
        // Refused before anything is composed; the store checks again inside its transaction.
        _ = try store.changeable(id, verb: "edit", listing: "drafts") { $0 == .draft }
        guard let detail = try store.detail(id: id) else { throw OutboxError.data("no message \(id): see `outbox drafts` for the ids") }
        defer { TemporaryFiles.removeAll() }
        switch detail.content {
        case .mail(let mail):
            try only(args, MailComposer.specs, channel: "mail")
            var merged = args
            merged.positionals = []
            func keep(_ name: String, _ value: [String]) { if merged.values[name] == nil, !value.isEmpty { merged.values[name] = value } }
            keep("to", mail.to); keep("cc", mail.cc); keep("bcc", mail.bcc); keep("reply-to", mail.replyTo)
            keep("from", mail.sender.map { [$0] } ?? []); keep("subject", [mail.subject])
            if merged.values["body"] == nil && merged.values["body-file"] == nil { keep("body", mail.textBody.map { [$0] } ?? []) }
            keep("header", mail.headers.map { "\($0.name): \($0.value)" })
            merged.flags.insert("draft")
            let message = try MailComposer.message(merged, config: config, readStdinBody: false)
            var content = message.content
            if case .mail(var edited) = content, args.value("html-file") == nil { edited.htmlBody = mail.htmlBody; content = .mail(edited) }
            try store.edit(draft: id, content: content, files: args.has("attach") ? message.files : nil)
        case .sms(let sms):
            try only(args, SMSComposer.specs, channel: "sms")
            var merged = args
            merged.positionals = []
            if merged.values["to"] == nil { merged.values["to"] = [sms.recipient] }
            if merged.values["body"] == nil && merged.values["body-file"] == nil { merged.values["body"] = [sms.body] }
            if merged.values["from"] == nil, let sender = sms.sender { merged.values["from"] = [sender] }
            let messages = try SMSComposer.messages(merged, config: config, readStdinBody: false)
            guard messages.count == 1 else { throw OutboxError.usage("an SMS draft has one recipient; compose a new message for more") }
            try store.edit(draft: id, content: messages[0].content)
        case .print:
            try only(args, PrintComposer.specs, channel: "print")
            // A print job is edited by giving its content again; options not given take their defaults.
            var merged = args
            merged.positionals = []
            let message = try PrintComposer.message(merged, config: config)
            try store.edit(draft: id, content: message.content, destination: .some(message.destination), files: message.files)
        }
        context.output.line("\(id) edited")
        return .ok
    }

    static func only(_ args: ParsedArguments, _ specs: [OptionSpec], channel: String) throws(OutboxError) {
        let allowed = Set(specs.map(\.name) + GlobalOptions.specs.map(\.name))
        if let wrong = (Array(args.values.keys) + Array(args.flags)).sorted().first(where: { !allowed.contains($0) }) {
            throw .usage("--\(wrong) does not apply to a \(channel) draft")
        }
    }
}
