import CSQLite
import FoundationEssentials

/// A prepared statement. Finalized in `deinit`; confined to its connection's thread.
public final class Statement {
    let handle: OpaquePointer
    unowned let connection: Connection
    public let sql: String

    init(connection: Connection, sql: String) throws(SQLiteError) {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard code == SQLITE_OK, let handle else {
            sqlite3_finalize(handle)
            throw connection.error(code: code, sql: sql)
        }
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    // MARK: - Binding

    /// Resets the statement and binds `values` to its positional parameters (`?`).
    public func bind(_ values: [any SQLiteBindable]) throws(SQLiteError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (index, value) in values.enumerated() {
            try bind(value.sqliteValue, at: Int32(index + 1))
        }
    }

    func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(handle, index)
        case .integer(let v): code = sqlite3_bind_int64(handle, index, v)
        case .real(let v): code = sqlite3_bind_double(handle, index, v)
        case .text(let v): code = sqlite3_bind_text(handle, index, v, -1, csqlite_transient())
        case .blob(let v):
            code = v.withUnsafeBytes { bytes in
                sqlite3_bind_blob64(handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                                    sqlite3_uint64(bytes.count), csqlite_transient())
            }
        }
        guard code == SQLITE_OK else { throw connection.error(code: code, sql: sql) }
    }

    // MARK: - Typed binding
    //
    // For loops that run one statement many times (bulk enqueue): no boxing of values, and text
    // bound with its length. Call `reset()`, bind every parameter by its 1-based index, `execute()`.

    /// Resets the statement and clears its bindings (all parameters become NULL).
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    public func bind(_ value: String?, at index: Int32) throws(SQLiteError) {
        guard var value else { return try check(sqlite3_bind_null(handle, index)) }
        let code = value.withUTF8 { text -> Int32 in
            guard let base = text.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, csqlite_transient()) }
            return base.withMemoryRebound(to: CChar.self, capacity: text.count) {
                sqlite3_bind_text64(handle, index, $0, sqlite3_uint64(text.count), csqlite_transient(), UInt8(SQLITE_UTF8))
            }
        }
        try check(code)
    }

    public func bind(_ value: Int64?, at index: Int32) throws(SQLiteError) {
        guard let value else { return try check(sqlite3_bind_null(handle, index)) }
        try check(sqlite3_bind_int64(handle, index, value))
    }

    public func bind(_ value: Int?, at index: Int32) throws(SQLiteError) {
        try bind(value.map(Int64.init), at: index)
    }

    private func check(_ code: Int32) throws(SQLiteError) {
        guard code == SQLITE_OK else { throw connection.error(code: code, sql: sql) }
    }

    /// Runs the statement with the values bound so far to completion, ignoring rows, and resets it.
    public func execute() throws(SQLiteError) {
        while try step() {}
        sqlite3_reset(handle)
    }

    // MARK: - Stepping

    /// Steps once: `true` when a row is available.
    public func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = connection.error(code: code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs to completion, ignoring rows.
    public func run(_ values: [any SQLiteBindable] = []) throws(SQLiteError) {
        try bind(values)
        while try step() {}
        sqlite3_reset(handle)
    }

    /// Runs and maps every row.
    public func rows<T>(_ values: [any SQLiteBindable] = [], _ map: (Row) throws -> T) throws -> [T] {
        try bind(values)
        defer { sqlite3_reset(handle) }
        var result: [T] = []
        while try step() { result.append(try map(Row(statement: self))) }
        return result
    }

    /// Runs and maps the first row, if any.
    public func first<T>(_ values: [any SQLiteBindable] = [], _ map: (Row) throws -> T) throws -> T? {
        try bind(values)
        defer { sqlite3_reset(handle) }
        return try step() ? map(Row(statement: self)) : nil
    }
}

@available(*, unavailable)
extension Statement: Sendable {}

/// The current row of a stepping statement; valid only until the next step.
public struct Row {
    let statement: Statement
    var handle: OpaquePointer { statement.handle }

    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    public func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
    public func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    public func optionalInt(_ column: Int32) -> Int? { isNull(column) ? nil : int(column) }
    public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    public func string(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        return String(cString: text)
    }
    public func optionalString(_ column: Int32) -> String? { isNull(column) ? nil : string(column) }
    public func bytes(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: pointer, count: count))
    }
}
