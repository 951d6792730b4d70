import FoundationEssentials
import OutboxEngine
import OutboxModel
import OutboxStore

struct StatusCommand: Command {
    static let name = "status"
    static func needsDelivery(_ args: ParsedArguments) -> Bool { true }
    static let abstract = "counts per channel and state, oldest waiting, where each channel goes and whether it is reachable"
    static let options: [OptionSpec] = [
        .flag("json", "one JSON object"),
        .flag("no-probe", "do not contact the sinks; report what the workers last saw"),
    ]

    static func run(_ args: ParsedArguments, _ context: Context) throws -> ExitCode {
        let config = try context.config()
        let sinks = try DeliveryProgram.services().sinks(config: config)
        let status = try context.store().status()
        let now = Timestamp.now()
        var channels: [[String: Any?]] = []
        var lines: [String] = ["database: \(Paths.abbreviate(try context.databasePath()))", ""]
        var table = Table(["CHANNEL", "DRAFT", "QUEUED", "SENDING", "SUBMITTED", "SENT", "FAILED", "CANCELLED", "OLDEST WAITING", "NEXT DUE"])
        for channel in Channel.allCases {
            let counts = status.counts[channel] ?? [:]
            let countCells: [String] = MessageState.allCases.map { String(counts[$0] ?? 0) }
            let oldest: String = status.oldestWaiting[channel].map { age(now - $0) } ?? "-"
            var due = "-"
            if let next = status.nextDue[channel] { due = next <= now ? "now" : "in " + age(next - now) }
            table.add([channel.rawValue] + countCells + [oldest, due])
        }
        lines.append(table.render())
        lines.append("")
        for channel in Channel.allCases {
            let counts = status.counts[channel] ?? [:]
            var object: [String: Any?] = ["channel": channel.rawValue,
                                          "counts": Dictionary(uniqueKeysWithValues: MessageState.allCases.map { ($0.rawValue, counts[$0] ?? 0) }),
                                          "oldest_waiting": MessageJSON.time(status.oldestWaiting[channel]),
                                          "next_due": MessageJSON.time(status.nextDue[channel])]
            guard let sink = sinks.sink(for: channel) else { continue }
            object["sink"] = sink.name
            object["destination"] = sink.destinationDescription
            var state = "ok"
            var detail: String?
            if let health = status.sinks.first(where: { $0.channel == channel && $0.sink == sink.name }), health.offline {
                state = "offline since \(Timestamp.iso8601(health.since))"
                detail = health.lastError
            }
            if !args.has("no-probe") {
                switch sink.probe() {
                case .reachable: object["reachable"] = true
                case .unreachable(let error):
                    object["reachable"] = false
                    state = "unreachable"
                    detail = error.detail
                }
            }
            object["state"] = state
            object["last_error"] = detail
            channels.append(object)
            lines.append("\(channel.rawValue): \(sink.destinationDescription) — \(state)\(detail.map { " (\($0))" } ?? "")")
        }
        // Bulk enqueues leave search indexing to the idle worker (or the next search).
        let unindexed = try context.store().searchBacklog()
        if unindexed > 0 { lines.append("search index: up to \(unindexed) message\(unindexed == 1 ? "" : "s") waiting to be indexed") }
        if args.has("json") {
            context.output.json(["database": try context.databasePath(), "channels": channels, "search_backlog": Int(unindexed)])
        } else {
            context.output.line(lines.joined(separator: "\n"))
        }
        return .ok
    }

    static func age(_ ms: Milliseconds) -> String {
        let s = ms / 1000
        if s < 60 { return "\(s)s" }
        if s < 3600 { return "\(s / 60)m" }
        if s < 86_400 { return "\(s / 3600)h\(s % 3600 / 60)m" }
        return "\(s / 86_400)d\(s % 86_400 / 3600)h"
    }
}
