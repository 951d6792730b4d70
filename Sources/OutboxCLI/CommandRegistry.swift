/// Every subcommand, in the order `outbox help` lists them.
enum CommandRegistry {
    static let all: [any Command.Type] = [
        MailCommand.self, SMSCommand.self, PrintCommand.self, ShareCommand.self, ImportCommand.self, RenderCommand.self,
        DraftsCommand.self, EditCommand.self, SendCommand.self, DiscardCommand.self,
        HistoryCommand.self, ShowCommand.self, CancelCommand.self, RetryCommand.self,
        WorkerCommand.self, StatusCommand.self, PrintersCommand.self, PurgeCommand.self, InitCommand.self, MigrateCommand.self,
    ]

    static func find(_ name: String) -> (any Command.Type)? {
        all.first { $0.name == name || $0.aliases.contains(name) }
    }

    static var names: [String] { all.flatMap { [$0.name] + $0.aliases } + ["help"] }
}
