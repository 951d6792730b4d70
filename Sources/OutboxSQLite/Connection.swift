import CSQLite
import FoundationEssentials

/// One SQLite connection, set up the way the outbox needs it: WAL, `synchronous=NORMAL`,
/// foreign keys, a busy timeout and extended result codes.
///
/// Not thread-safe: confine it to one thread or serial queue. Call `close()` when done;
/// `deinit` only checks that it was.
public final class Connection {
    let handle: OpaquePointer
    public let path: String
    private var statements: [String: Statement] = [:]
    private var isClosed = false
    /// The busy timeout set at open, restored after `withBusyTimeout`.
    private let busyTimeout: Int32

    /// How long a writer waits for another process's lock before SQLite gives up.
    public static let defaultBusyTimeout: Int32 = 30_000

    /// Opens (creating when `create` is true) the database at `path`.
    public init(path: String, create: Bool = true, readOnly: Bool = false,
                busyTimeoutMilliseconds: Int32 = Connection.defaultBusyTimeout) throws(SQLiteError) {
        var handle: OpaquePointer?
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        flags |= readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(handle)
            throw SQLiteError(extendedCode: code, message: message)
        }
        self.handle = handle
        self.path = path
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        busyTimeout = busyTimeoutMilliseconds
        do {
            // Reading the schema first makes a file that is not SQLite fail here, before anything
            // could change it. WAL is switched on by `enableWAL()` once the caller has checked the
            // file is its own: a journal-mode change writes to the file.
            try execute("SELECT count(*) FROM sqlite_schema")
            try execute("PRAGMA synchronous = NORMAL")
            try execute("PRAGMA foreign_keys = ON")
        } catch {
            statements.removeAll()
            sqlite3_close_v2(handle)
            isClosed = true
            throw error
        }
    }

    deinit {
        assert(isClosed, "Connection to \(path) was not closed")
        if !isClosed { statements.removeAll(); sqlite3_close_v2(handle) }
    }

    /// Finalizes cached statements and closes the connection.
    public func close() {
        guard !isClosed else { return }
        statements.removeAll()
        sqlite3_close_v2(handle)
        isClosed = true
    }

    func error(code: Int32, sql: String?) -> SQLiteError {
        let extended = sqlite3_extended_errcode(handle)
        return SQLiteError(extendedCode: extended != 0 ? extended : code,
                           message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    /// Switches the database to write-ahead logging (persistent, so done once per file).
    public func enableWAL() throws(SQLiteError) {
        try execute("PRAGMA journal_mode = WAL")
    }

    // MARK: - Statements

    /// Runs one or more statements that take no parameters.
    public func execute(_ sql: String) throws(SQLiteError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code: code, sql: sql) }
    }

    /// A cached prepared statement for `sql`.
    public func statement(_ sql: String) throws(SQLiteError) -> Statement {
        if let cached = statements[sql] { return cached }
        let statement = try Statement(connection: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// Runs `sql` with `values`, ignoring rows.
    public func run(_ sql: String, _ values: [any SQLiteBindable] = []) throws(SQLiteError) {
        try statement(sql).run(values)
    }

    /// Runs `sql` and maps each row.
    public func rows<T>(_ sql: String, _ values: [any SQLiteBindable] = [], _ map: (Row) throws -> T) throws -> [T] {
        try statement(sql).rows(values, map)
    }

    /// Runs `sql` and maps the first row.
    public func first<T>(_ sql: String, _ values: [any SQLiteBindable] = [], _ map: (Row) throws -> T) throws -> T? {
        try statement(sql).first(values, map)
    }

    /// The integer in the first column of the first row, if any.
    public func scalar(_ sql: String, _ values: [any SQLiteBindable] = []) throws -> Int? {
        try first(sql, values) { $0.isNull(0) ? nil : $0.int(0) } ?? nil
    }

    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// `PRAGMA data_version`: changes when another connection commits.
    public func dataVersion() throws -> Int { try scalar("PRAGMA data_version") ?? 0 }

    /// Runs `body` waiting at most `milliseconds` for another connection's lock, for work
    /// that can be skipped when the database is busy.
    public func withBusyTimeout<T>(milliseconds: Int32, _ body: () throws -> T) rethrows -> T {
        sqlite3_busy_timeout(handle, milliseconds)
        defer { sqlite3_busy_timeout(handle, busyTimeout) }
        return try body()
    }

    /// Runs `body` with the page cache allowed to grow to `kibibytes`, then returns to the
    /// previous limit (which frees the extra pages). For bulk writes whose working set — a
    /// randomly filled unique index, full-text segments being merged — outgrows the default
    /// 2 MB: with it, SQLite spills and re-reads the same pages over and over.
    public func withCacheSize<T>(kibibytes: Int, _ body: () throws -> T) throws -> T {
        let previous = try scalar("PRAGMA cache_size") ?? -2000
        try execute("PRAGMA cache_size = \(-kibibytes)")
        defer { try? execute("PRAGMA cache_size = \(previous)") }
        return try body()
    }

    // MARK: - Transactions

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back if it throws.
    /// Immediate transactions take the write lock up front, so concurrent writers wait on the
    /// busy timeout instead of failing with a deadlock `SQLITE_BUSY` on upgrade.
    public func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Runs `body` inside a deferred (read) transaction, so all reads see one snapshot.
    public func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN DEFERRED")
        defer { if sqlite3_get_autocommit(handle) == 0 { try? execute("COMMIT") } }
        return try body()
    }
}

@available(*, unavailable)
extension Connection: Sendable {}
