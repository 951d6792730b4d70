import OutboxModel
import OutboxSQLite

/// Turns SQLite failures into user-facing errors with the right exit code.
enum StoreError {
    static func map(_ error: Error, path: String) -> Error {
        guard let sqlite = error as? SQLiteError else { return error }
        if sqlite.isFull {
            return OutboxError.io("the disk holding \(path) is full; nothing was written. Free some space and try again")
        }
        if sqlite.isNotADatabase {
            return OutboxError.data("\(path) is not an SQLite database; nothing was changed. Point --db or OUTBOX_DB at an outbox database, or at a new file")
        }
        if sqlite.isBusy {
            return OutboxError(.tempFailure, "the database \(path) stayed locked by another process for too long; try again")
        }
        if sqlite.isReadOnly {
            return OutboxError(.cantCreate, "the database \(path) is read-only: \(sqlite.message)")
        }
        if sqlite.isIOError {
            return OutboxError.io("cannot read or write the database \(path): \(sqlite.message)")
        }
        return OutboxError(.software, "internal database error: \(sqlite)")
    }
}
