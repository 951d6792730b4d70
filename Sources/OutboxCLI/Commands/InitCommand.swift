import OutboxModel
import OutboxStore

struct InitCommand: Command {
    static let name = "init"
    static let abstract = "create the database (and its directory) if needed"
    static let options: [OptionSpec] = []

    static func run(_ args: ParsedArguments, _ context: Context) throws -> ExitCode {
        _ = try context.store()
        context.output.line("database ready: \(try context.databasePath())")
        return .ok
    }
}
