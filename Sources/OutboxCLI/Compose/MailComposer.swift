import FoundationEssentials
import Glibc
import OutboxModel

/// Builds a mail from `outbox mail` flags (or an `import` line read as flags).
enum MailComposer {
    static let specs: [OptionSpec] = [
        .value("to", "ADDR", "recipient (repeatable)", repeatable: true),
        .value("cc", "ADDR", "copy recipient (repeatable)", repeatable: true),
        .value("bcc", "ADDR", "blind copy recipient, never in the headers (repeatable)", repeatable: true),
        .value("from", "ADDR", "sender (default: config mail.from)"),
        .value("reply-to", "ADDR", "Reply-To address (repeatable)", repeatable: true),
        .value("subject", "TEXT", "subject line"),
        .value("body", "TEXT", "plain-text body"),
        .value("body-file", "FILE", "read the plain-text body from FILE (- for stdin)"),
        .value("html-file", "FILE", "HTML body from FILE (sent as multipart/alternative with the text)"),
        .value("attach", "FILE[;type=MIME][;name=NAME]", "attach a file (- for stdin; repeatable)", repeatable: true),
        .value("header", "'NAME: VALUE'", "extra header (repeatable)", repeatable: true),
    ]

    /// Headers the composer writes itself; a user may not set them.
    static let reservedHeaders: Set<String> = ["from", "to", "cc", "bcc", "reply-to", "subject", "date", "message-id",
                                               "mime-version", "content-type", "content-transfer-encoding"]

    static func message(_ args: ParsedArguments, config: Config, readStdinBody: Bool) throws -> NewMessage {
        let to = try addresses(args.all("to"), field: "--to")
        let cc = try addresses(args.all("cc"), field: "--cc")
        let bcc = try addresses(args.all("bcc"), field: "--bcc")
        guard !(to + cc + bcc).isEmpty else { throw OutboxError.usage("a mail needs at least one recipient: --to ADDR") }
        let replyTo = try addresses(args.all("reply-to"), field: "--reply-to")
        let from = try args.value("from").map { text throws -> String in try EmailAddress(parsing: text).description }
        guard let subject = args.value("subject") else { throw OutboxError.usage("a mail needs --subject TEXT") }
        try HeaderText.checkSafe(subject, field: "--subject")
        if args.has("body") && args.has("body-file") { throw OutboxError.usage("give --body or --body-file, not both") }
        var text = args.value("body")
        if let file = args.value("body-file") { text = try readText(file, what: "--body-file") }
        let html = try args.value("html-file").map { try readText($0, what: "--html-file") }
        if text == nil && html == nil && readStdinBody && isatty(STDIN_FILENO) == 0 {
            text = try readText("-", what: "standard input")
        }
        var headers: [MailHeader] = []
        for raw in args.all("header") {
            guard let colon = raw.firstIndex(of: ":") else { throw OutboxError.usage("--header '\(raw)' must look like 'Name: value'") }
            let name = raw[..<colon].trimmingSpaces()
            let value = raw[raw.index(after: colon)...].trimmingSpaces()
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && $0 != " " && $0 != ":" && !$0.isNewline && $0 != "\0" && !($0.asciiValue.map { $0 < 33 || $0 > 126 } ?? true) }) else {
                throw OutboxError.data("--header '\(raw)': '\(name)' is not a valid header name")
            }
            guard !reservedHeaders.contains(name.lowercased()) else {
                throw OutboxError.usage("--header \(name) is set by outbox itself; use the matching option instead")
            }
            try HeaderText.checkSafe(value, field: "header \(name)")
            headers.append(MailHeader(name: name, value: value))
        }
        var files: [NewAttachment] = []
        for spec in args.all("attach") {
            let file = try FileArgument.parse(spec)
            files.append(NewAttachment(path: file.path, role: .attachment, filename: file.filename, mimeType: try file.resolvedMimeType()))
        }
        let mail = MailContent(sender: from, to: to, cc: cc, bcc: bcc, replyTo: replyTo, subject: subject,
                               textBody: text, htmlBody: html, headers: headers)
        var message = NewMessage(content: .mail(mail), files: files)
        try ComposeOptions.apply(args, to: &message, config: config)
        return message
    }

    /// Parses and checks addresses; a comma-separated list in one flag is accepted too.
    static func addresses(_ values: [String], field: String) throws(OutboxError) -> [String] {
        var result: [String] = []
        for value in values {
            for part in splitList(value) {
                do { result.append(try EmailAddress(parsing: part).description) } catch {
                    throw .data("\(field): \(error.message)")
                }
            }
        }
        return result
    }

    /// Splits `a@x, "Doe, Jane" <j@x>` on commas outside quotes and angle brackets.
    static func splitList(_ text: String) -> [String] {
        // Without a comma there is one part; with no space or tab at either end it needs no trimming.
        if !text.utf8.contains(UInt8(ascii: ",")), let first = text.utf8.first, let last = text.utf8.last,
           first > 0x20, first < 0x80, last > 0x20, last < 0x80 {
            return [text]
        }
        var parts: [String] = []
        var current = ""
        var quoted = false
        var angle = false
        for ch in text {
            switch ch {
            case "\"": quoted.toggle(); current.append(ch)
            case "<": angle = true; current.append(ch)
            case ">": angle = false; current.append(ch)
            case "," where !quoted && !angle:
                parts.append(current); current = ""
            default: current.append(ch)
            }
        }
        parts.append(current)
        return parts.map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
    }

    /// Reads a UTF-8 text file (or stdin for `-`).
    static func readText(_ path: String, what: String) throws(OutboxError) -> String {
        let data: Data
        if path == "-" {
            data = (try? SystemFile.standardInput.readToEnd()) ?? Data()
        } else {
            let expanded = Paths.expand(path)
            guard let contents = FileManager.default.contents(atPath: expanded) else {
                throw .noInput("cannot read \(what) \(path): no such file or not readable")
            }
            data = contents
        }
        guard let text = String(data: data, encoding: .utf8) else { throw .data("\(what) \(path) is not UTF-8 text") }
        return text
    }
}
