import FoundationEssentials
import OutboxEngine
import OutboxModel
import OutboxStore

struct WorkerCommand: Command {
    static let name = "worker"
    static func needsDelivery(_ args: ParsedArguments) -> Bool { true }
    static let abstract = "deliver queued messages: run until stopped, or --once to drain what is due"
    static let options: [OptionSpec] = [
        .flag("once", "deliver everything due now, print a summary and exit (75 if a sink was offline)"),
        .value("channel", "CHANNEL", "only this channel (repeatable; default all)", repeatable: true),
        .flag("verbose", "log every event on standard error"),
    ]
    static let discussion = """
        SIGINT or SIGTERM stop claiming, let in-flight deliveries finish within
        worker.shutdown_grace_seconds and put the rest back in the queue; a second signal exits
        at once (leases expire, nothing is lost). Several workers may share one database.
        Delivery is at-least-once.
        """

    static func validate(_ args: ParsedArguments) throws(OutboxError) {
        _ = try args.channels()
    }

    static func run(_ args: ParsedArguments, _ context: Context) throws -> ExitCode {
        let services = try DeliveryProgram.services()
        if args.has("verbose") { Log.shared.level = .debug }
        let config = try context.config()
        let path = try context.databasePath()
        // Create and migrate before the worker opens its own connections.
        _ = try context.store()
        context.close()
        let channels = Set(try args.channels().isEmpty ? Channel.allCases : try args.channels())
        let owner = Worker.defaultOwner()
        let sinks = try TestSinkOverride.apply(to: services.sinks(config: config), environment: context.environment)
        let worker = Worker(databasePath: path, config: config, sinks: sinks, channels: channels, owner: owner)
        if args.has("once") {
            let summary = try worker.runOnce()
            context.output.line(summary.line)
            return summary.offlineSinks.isEmpty ? .ok : .tempFailure
        }
        try worker.run()
        return .ok
    }
}
