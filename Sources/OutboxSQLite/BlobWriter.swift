import CSQLite

/// Writes a BLOB column in chunks with SQLite's incremental blob I/O, so large attachments never
/// sit in memory whole. The row must already hold a zero-filled blob of the final size
/// (`zeroblob(N)`); valid only inside the transaction that created it.
public final class BlobWriter {
    private var handle: OpaquePointer?
    private unowned let connection: Connection
    public let size: Int
    public private(set) var offset = 0

    public init(connection: Connection, table: String, column: String, rowID: Int64) throws(SQLiteError) {
        self.connection = connection
        var handle: OpaquePointer?
        let code = sqlite3_blob_open(connection.handle, "main", table, column, rowID, 1, &handle)
        guard code == SQLITE_OK, let handle else {
            sqlite3_blob_close(handle)
            throw connection.error(code: code, sql: "blob open \(table).\(column)")
        }
        self.handle = handle
        self.size = Int(sqlite3_blob_bytes(handle))
    }

    deinit { sqlite3_blob_close(handle) }

    /// Appends `bytes` at the current offset.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SQLiteError) {
        guard bytes.count > 0, let base = bytes.baseAddress else { return }
        let code = sqlite3_blob_write(handle, base, Int32(bytes.count), Int32(offset))
        guard code == SQLITE_OK else { throw connection.error(code: code, sql: "blob write") }
        offset += bytes.count
    }

    public func close() throws(SQLiteError) {
        let code = sqlite3_blob_close(handle)
        handle = nil
        guard code == SQLITE_OK else { throw connection.error(code: code, sql: "blob close") }
    }
}

@available(*, unavailable)
extension BlobWriter: Sendable {}
