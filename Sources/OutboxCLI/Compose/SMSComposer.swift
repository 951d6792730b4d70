import FoundationEssentials
import Glibc
import OutboxModel

/// Builds SMS messages from `outbox sms` flags: one message per recipient.
enum SMSComposer {
    static let specs: [OptionSpec] = [
        .value("to", "NUMBER", "recipient, international (+49151…) or national with sms.default_country_code (repeatable)", repeatable: true),
        .value("from", "ID", "sender id (default: the gateway's configured sender)"),
        .value("body", "TEXT", "message text"),
        .value("body-file", "FILE", "read the text from FILE (- for stdin)"),
        .value("max-segments", "N", "refuse texts longer than N segments"),
    ]

    static func messages(_ args: ParsedArguments, config: Config, readStdinBody: Bool) throws -> [NewMessage] {
        let recipients = args.all("to").flatMap { $0.split(separator: ",").map(String.init) }
        guard !recipients.isEmpty else { throw OutboxError.usage("an SMS needs at least one recipient: --to NUMBER") }
        if args.has("body") && args.has("body-file") { throw OutboxError.usage("give --body or --body-file, not both") }
        var body = args.value("body")
        if let file = args.value("body-file") { body = try MailComposer.readText(file, what: "--body-file") }
        if body == nil && readStdinBody && isatty(STDIN_FILENO) == 0 { body = try MailComposer.readText("-", what: "standard input") }
        guard let body, !body.isEmpty else { throw OutboxError.usage("an SMS needs a text: --body TEXT or --body-file FILE") }
        if let sender = args.value("from") {
            try HeaderText.checkSafe(sender, field: "--from")
            let alphanumeric = sender.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == " ") }
            guard (sender.hasPrefix("+") && sender.dropFirst().allSatisfy(\.isNumber)) || (alphanumeric && sender.count <= 11) else {
                throw OutboxError.data("--from '\(sender)' is not a sender id: use a number (+4915…) or up to 11 letters and digits")
            }
        }
        let analysis = SMSEncoding.analyze(body)
        if let max = try args.int("max-segments", range: 1...255), analysis.segments > max {
            throw OutboxError.data("the text needs \(analysis.segments) segments (\(analysis.encoding.rawValue), \(analysis.units) \(analysis.encoding == .gsm7 ? "septets" : "UTF-16 units")), more than --max-segments \(max)")
        }
        var seen = Set<String>()
        var messages: [NewMessage] = []
        for raw in recipients {
            let number = try PhoneNumber.normalize(raw, defaultCountryCode: config.sms.defaultCountryCode)
            guard seen.insert(number).inserted else { continue }
            var message = NewMessage(content: .sms(SMSContent(sender: args.value("from"), recipient: number, body: body)))
            try ComposeOptions.apply(args, to: &message, config: config)
            messages.append(message)
        }
        return messages
    }

    /// "gsm7, 2 segments" or "ucs2 (because of 'é'), 1 segment", shown after composing.
    static func describe(_ body: String) -> String {
        let a = SMSEncoding.analyze(body)
        let reason = a.forcedBy.map { " (because of '\($0)')" } ?? ""
        return "\(a.encoding.rawValue)\(reason), \(a.units) \(a.encoding == .gsm7 ? "septets" : "UTF-16 units"), \(a.segments) segment\(a.segments == 1 ? "" : "s")"
    }
}
