import FoundationEssentials
import Glibc
import OutboxModel
import OutboxStore

/// Bulk loading: JSON Lines, one message per line, with the same fields as the compose flags.
/// All or nothing: one bad line and nothing is stored.
struct ImportCommand: Command {
    static let name = "import"
    static let abstract = "queue messages from JSON Lines (one message per line); all or nothing"
    static let arguments = "[FILE | -]"
    /// Print lines are checked by the delivery side.
    static func needsDelivery(_ args: ParsedArguments) -> Bool { true }
    static let options: [OptionSpec] = [.flag("json", "print one JSON object per stored message")]
    static let discussion = """
        Each line is an object with "channel" (mail, sms or print) and the compose flags as keys
        (with - or _): {"channel":"mail","to":["ada@example.org"],"subject":"Hi","body":"…","attach":["a.pdf"]}
        {"channel":"sms","to":"+4915112345678","body":"On my way"}
        {"channel":"print","text":"Hello","to":"pdf","copies":2}
        Booleans are flags ("draft": true); arrays give repeatable flags. Errors name the line.
        """

    static func validate(_ args: ParsedArguments) throws(OutboxError) {
        guard args.positionals.count <= 1 else { throw .usage("import takes one FILE (or - for standard input)") }
    }

    /// Lines parsed and handed to the store at a time (one transaction holds them all).
    static let chunkLines = 2_000

    /// Two passes over the input, so the write lock is held only while storing: the first
    /// reads and checks every line (printers included) without the lock; the second reads the
    /// lines again and stores them a chunk at a time in one transaction. Neither holds more
    /// than a chunk of messages, and standard input is spooled to a file for the second pass.
    static func run(_ args: ParsedArguments, _ context: Context) throws -> ExitCode {
        let config = try context.config()
        let name = args.positionals.first ?? "-"
        defer { TemporaryFiles.removeAll() }
        let path = name == "-" ? try FileArgument.spoolStandardInput() : Paths.expand(name)
        var keys = Set<String>()
        var count = 0
        var checking = try openLines(path, named: name)
        while try checking.next({ line in
            let messages = try ImportLine.messages(line, config: config)
            if let key = messages.first?.idempotencyKey, !keys.insert(key).inserted {
                throw OutboxError.data("key '\(key)' appears twice in the file")
            }
        }) { count += 1 }
        guard count > 0 else { throw OutboxError.data("\(name) has no messages; nothing was imported") }

        var pending: [[NewMessage]] = []
        var storing = try openLines(path, named: name)
        let results = try context.store().enqueueStream {
            pending.removeAll(keepingCapacity: true)
            while pending.count < chunkLines,
                  try storing.next({ pending.append(try ImportLine.messages($0, config: config, checkDestination: false)) }) {}
            return pending.isEmpty ? nil : pending
        }
        if args.has("json") {
            for result in results { for id in result.ids { context.output.json(["id": Int(id), "existing": result.existing]) } }
        } else {
            let stored = results.filter { !$0.existing }.reduce(0) { $0 + $1.ids.count }
            let existing = results.filter(\.existing).reduce(0) { $0 + $1.ids.count }
            context.output.line("imported \(stored) message\(stored == 1 ? "" : "s")\(existing > 0 ? ", \(existing) already present (same key)" : "")")
        }
        return .ok
    }

    private static func openLines(_ path: String, named name: String) throws -> ImportLineReader {
        ImportLineReader(LineReader(try FileArgument.open(path, named: name)), name: name)
    }
}

/// One JSON line read as the flags of its channel's compose command, so import and the
/// commands share every check.
enum ImportLine {
    /// Each channel's fields, by name: built once, not per line.
    private static let fields: [Channel: (names: [String], byName: [String: OptionSpec])] = {
        var result: [Channel: (names: [String], byName: [String: OptionSpec])] = [:]
        for channel in Channel.allCases {
            let specs: [OptionSpec] = switch channel {
            case .mail: MailComposer.specs + ComposeOptions.specs
            case .sms: SMSComposer.specs + ComposeOptions.specs
            case .print: PrintComposer.specs + ComposeOptions.specs + [.value("files", "FILE", "", repeatable: true)]
            }
            result[channel] = (specs.map(\.name), Dictionary(uniqueKeysWithValues: specs.map { ($0.name, $0) }))
        }
        return result
    }()

    /// The message(s) of one line; `line` is read in place, not copied.
    static func messages(_ line: UnsafeRawBufferPointer, config: Config, checkDestination: Bool = true) throws -> [NewMessage] {
        let json: JSONValue
        do { json = try JSONValue.parse(line) } catch { throw OutboxError.data("not valid JSON") }
        guard case .object(var members) = json else { throw OutboxError.data("each line must be a JSON object") }
        guard case .string(let channelName)? = members.removeValue(forKey: "channel"), let channel = Channel(rawValue: channelName) else {
            throw OutboxError.data("\"channel\" must be \"mail\", \"sms\" or \"print\"")
        }
        let (names, byName) = fields[channel]!
        var args = ParsedArguments()
        for (rawKey, value) in members.sorted(by: { $0.key < $1.key }) {
            let key = rawKey.utf8.contains(UInt8(ascii: "_")) ? rawKey.replacingEvery("_", with: "-") : rawKey
            guard let spec = byName[key], key != "json" else {
                let hint = Spelling.closest(to: key, in: names).map { " (did you mean \"\($0)\"?)" } ?? ""
                throw OutboxError.data("unknown field \"\(rawKey)\" for a \(channel.rawValue) message\(hint)")
            }
            switch (spec.kind, value) {
            case (.flag, .bool(let b)): if b { args.flags.insert(key) }
            case (.flag, _): throw OutboxError.data("\"\(rawKey)\" must be true or false")
            case (.value, .string(let s)): args.values[key] = [s]
            case (.value, .number(let n)): args.values[key] = [n == n.rounded() ? String(Int(n)) : String(n)]
            case (.value(_, let repeatable), .array(let items)) where repeatable:
                args.values[key] = try items.map { item -> String in
                    guard case .string(let s) = item else { throw OutboxError.data("\"\(rawKey)\" must be a list of strings") }
                    return s
                }
            case (.value, .null): continue
            default: throw OutboxError.data("\"\(rawKey)\" must be \(spec.isRepeatable ? "a string or a list of strings" : "a string or number")")
            }
        }
        if let files = args.values.removeValue(forKey: "files") { args.positionals = files }
        switch channel {
        case .mail: return [try MailComposer.message(args, config: config, readStdinBody: false)]
        case .sms: return try SMSComposer.messages(args, config: config, readStdinBody: false)
        case .print:
            let message = try PrintComposer.message(args, config: config)
            if checkDestination { try PrintDestinations.check(message.destination ?? config.print.defaultDestination, config: config) }
            return [message]
        }
    }
}
