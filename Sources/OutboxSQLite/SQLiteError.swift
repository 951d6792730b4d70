import CSQLite

/// An error returned by SQLite: the extended result code, SQLite's own message and the SQL that
/// failed. Bound values (addresses, phone numbers) are never part of it.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, `SQLITE_FULL`, …).
    public let extendedCode: Int32
    public let message: String
    public let sql: String?

    public init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// The primary result code (the low byte of the extended one).
    public var primaryCode: Int32 { extendedCode & 0xff }

    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }
    public var isFull: Bool { primaryCode == SQLITE_FULL }
    public var isIOError: Bool { primaryCode == SQLITE_IOERR || primaryCode == SQLITE_CANTOPEN }
    public var isNotADatabase: Bool { primaryCode == SQLITE_NOTADB }
    public var isUniqueViolation: Bool {
        // SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY are macro expressions that do not import.
        extendedCode == SQLITE_CONSTRAINT | (8 << 8) || extendedCode == SQLITE_CONSTRAINT | (6 << 8)
    }
    public var isReadOnly: Bool { primaryCode == SQLITE_READONLY }

    public var description: String {
        var text = "SQLite error \(extendedCode): \(message)"
        if let sql { text += " — while running: \(sql)" }
        return text
    }
}
