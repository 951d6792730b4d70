import FoundationEssentials
import OutboxModel
import OutboxSQLite

/// Applies `Migration.all` in order, each in one `BEGIN IMMEDIATE` transaction together with its
/// row in `schema_migrations`. Refuses files it does not own and databases newer than itself,
/// without changing them.
public struct Migrator {
    public let migrations: [Migration]

    public init(migrations: [Migration] = Migration.all) { self.migrations = migrations }

    public struct Status: Sendable, Equatable {
        public var applied: [(version: Int, name: String, appliedAt: Milliseconds)]
        public var pending: [Migration]
        public static func == (a: Status, b: Status) -> Bool {
            a.applied.map(\.version) == b.applied.map(\.version) && a.pending == b.pending
        }
    }

    static let bookkeeping = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            version    INTEGER PRIMARY KEY,
            name       TEXT NOT NULL,
            applied_at INTEGER NOT NULL
        ) STRICT
        """

    /// Checks the file is an outbox database (or empty) and not newer than this binary.
    public func check(_ db: Connection, path: String) throws -> Status {
        let tables = try db.rows("SELECT name FROM sqlite_schema WHERE type = 'table'") { $0.string(0) }
        if tables.isEmpty { return Status(applied: [], pending: migrations) }
        guard tables.contains("schema_migrations"), tables.contains("outbox_meta"),
              try db.first("SELECT value FROM outbox_meta WHERE key = 'application'", [], { $0.string(0) }) == "outbox"
        else {
            throw OutboxError.data("\(path) is an SQLite database but not an outbox database; nothing was changed. Point --db or OUTBOX_DB at an outbox database, or at a new file")
        }
        let applied = try db.rows("SELECT version, name, applied_at FROM schema_migrations ORDER BY version") {
            (version: $0.int(0), name: $0.string(1), appliedAt: Milliseconds($0.int64(2)))
        }
        let known = Dictionary(uniqueKeysWithValues: migrations.map { ($0.version, $0.name) })
        if let unknown = applied.first(where: { known[$0.version] != $0.name }) {
            throw OutboxError.data("\(path) was created by a newer outbox (it has migration \(unknown.name), which this binary does not know); nothing was changed. Upgrade outbox to use it")
        }
        let done = Set(applied.map(\.version))
        return Status(applied: applied, pending: migrations.filter { !done.contains($0.version) })
    }

    /// Applies what is pending. Safe when several processes start at once: each migration
    /// re-checks, inside its write transaction, that no one else applied it.
    @discardableResult
    public func migrate(_ db: Connection, path: String) throws -> [Migration] {
        let status = try check(db, path: path)
        guard !status.pending.isEmpty else { return [] }
        var applied: [Migration] = []
        for migration in status.pending {
            try db.writeTransaction {
                try db.execute(Self.bookkeeping)
                let already = try db.scalar("SELECT count(*) FROM schema_migrations WHERE version = ?", [migration.version]) ?? 0
                guard already == 0 else { return }
                try db.execute(migration.sql)
                try db.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                           [migration.version, migration.name, Timestamp.now()])
                applied.append(migration)
            }
        }
        return applied
    }
}
