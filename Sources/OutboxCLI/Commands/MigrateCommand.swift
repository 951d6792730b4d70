import OutboxModel
import OutboxSQLite
import OutboxStore

struct MigrateCommand: Command {
    static let name = "migrate"
    static let abstract = "upgrade the database schema, or show which migrations are applied"
    static let options: [OptionSpec] = [
        .flag("status", "list applied and pending migrations, change nothing"),
        .flag("json", "one JSON object per migration"),
    ]

    static func run(_ args: ParsedArguments, _ context: Context) throws -> ExitCode {
        let path = try context.databasePath()
        if args.has("status") {
            let store = try context.store()
            let status = try Migrator().check(store.db, path: path)
            for applied in status.applied {
                if args.has("json") { context.output.json(["version": applied.version, "name": applied.name, "applied_at": Timestamp.iso8601(applied.appliedAt)]) }
                else { context.output.line("applied  \(applied.name)  \(Timestamp.iso8601(applied.appliedAt))") }
            }
            for pending in status.pending {
                if args.has("json") { context.output.json(["version": pending.version, "name": pending.name, "pending": true]) }
                else { context.output.line("pending  \(pending.name)") }
            }
            return .ok
        }
        _ = try context.store()
        context.output.line("database is at schema version \(Migration.all.last?.version ?? 0): \(path)")
        return .ok
    }
}
