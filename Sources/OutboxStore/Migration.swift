/// One file of `Migrations/`, embedded at build time.
public struct Migration: Sendable, Equatable {
    /// The number the file name starts with (`0001_initial.sql` → 1).
    public let version: Int
    public let name: String
    public let sql: String

    /// The embedded set, in order.
    public static let all: [Migration] = EmbeddedMigrations.all.map { entry in
        let version = Int(entry.name.prefix(while: { $0.isNumber })) ?? 0
        return Migration(version: version, name: entry.name, sql: entry.sql)
    }
}
