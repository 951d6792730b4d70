import FoundationEssentials
import OutboxModel
import OutboxSQLite

/// The outbox database: messages, their content and files, the attempt ledger.
///
/// One store owns one connection and is not thread-safe: confine it to one thread or serial
/// queue (the worker gives it a serial `DispatchQueue`). Several stores, in one process or
/// many, may share one file: writes take the lock up front (`BEGIN IMMEDIATE`) and wait on
/// the busy timeout.
public final class OutboxStore {
    public let path: String
    public let db: Connection

    private init(path: String, db: Connection) {
        self.path = path
        self.db = db
    }

    /// Opens the database at `path`, creating its directory and file, and applying pending
    /// migrations. A file that is not SQLite, not an outbox database, or newer than this binary
    /// is refused without being changed.
    public static func open(path: String, migrate: Bool = true) throws -> OutboxStore {
        let directory = Paths.deletingLastComponent(path)
        if !directory.isEmpty && !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw OutboxError(.cantCreate, "cannot create the database directory \(directory): \(ErrorText.describe(error)). Choose another place with --db or OUTBOX_DB")
            }
        }
        let db: Connection
        do {
            db = try Connection(path: path)
        } catch {
            if error.primaryCode == 14 /* SQLITE_CANTOPEN */ {
                throw OutboxError(.cantCreate, "cannot open or create the database \(path): \(error.message). Check the path and its permissions")
            }
            throw StoreError.map(error, path: path)
        }
        do {
            let migrator = Migrator()
            let status = try migrator.check(db, path: path)
            try db.enableWAL()
            // `migrate` checks again inside its write transaction; skip it when nothing is pending
            // (every command opens the store, so this keeps the check to one read).
            if migrate && !status.pending.isEmpty { try migrator.migrate(db, path: path) }
        } catch {
            db.close()
            throw StoreError.map(error, path: path)
        }
        return OutboxStore(path: path, db: db)
    }

    public func close() { db.close() }

    /// Runs `body` in a write transaction, turning SQLite errors into user-facing ones.
    public func write<T>(_ body: () throws -> T) throws -> T {
        do { return try db.writeTransaction(body) } catch { throw StoreError.map(error, path: path) }
    }

    /// Runs `body` in a read transaction (one consistent snapshot).
    public func read<T>(_ body: () throws -> T) throws -> T {
        do { return try db.readTransaction(body) } catch { throw StoreError.map(error, path: path) }
    }
}

@available(*, unavailable)
extension OutboxStore: Sendable {}
