import FoundationEssentials
import OutboxModel
import OutboxStore

/// The options every compose command shares, and how they apply to a new message.
enum ComposeOptions {
    static let specs: [OptionSpec] = [
        .flag("draft", "save as a draft instead of queueing (see `outbox drafts`, `outbox send`)"),
        .value("at", "TIME", "do not send before TIME (2026-12-01T09:00:00Z, '2026-12-01 09:00', +10m)"),
        .value("key", "KEY", "idempotency key: the same key again returns the existing id and writes nothing"),
        .value("priority", "N", "higher goes first (default 0)"),
        .flag("json", "print the stored record(s) as JSON"),
    ]

    static func apply(_ args: ParsedArguments, to message: inout NewMessage, config: Config) throws(OutboxError) {
        message.state = args.has("draft") ? .draft : .queued
        message.notBefore = try args.time("at", relativeSign: 1)
        if let key = args.value("key") {
            guard !key.isEmpty, key.count <= 200 else { throw .usage("--key must be 1 to 200 characters") }
            message.idempotencyKey = key
        }
        message.priority = try args.int("priority", range: -1000...1000) ?? 0
        message.retry = config.retryPolicy(message.channel)
    }

    /// Prints what was stored: the ids (one per line) or the JSON records.
    static func report(_ result: EnqueueResult, args: ParsedArguments, context: Context) throws {
        let store = try context.store()
        if args.has("json") {
            for id in result.ids {
                if let detail = try store.detail(id: id) {
                    var object = MessageJSON.summary(detail.summary)
                    object["existing"] = result.existing
                    object["content"] = MessageJSON.content(detail.content)
                    context.output.json(object)
                }
            }
            return
        }
        for id in result.ids { context.output.line(String(id)) }
        if result.existing {
            context.output.note("outbox: key already used; nothing new was stored (existing id\(result.ids.count > 1 ? "s" : "") above)")
        }
    }
}
