import CSQLite

/// Reads a BLOB column in chunks with SQLite's incremental blob I/O.
public final class BlobReader {
    private var handle: OpaquePointer?
    private unowned let connection: Connection
    public let size: Int
    public private(set) var offset = 0

    public init(connection: Connection, table: String, column: String, rowID: Int64) throws(SQLiteError) {
        self.connection = connection
        var handle: OpaquePointer?
        let code = sqlite3_blob_open(connection.handle, "main", table, column, rowID, 0, &handle)
        guard code == SQLITE_OK, let handle else {
            sqlite3_blob_close(handle)
            throw connection.error(code: code, sql: "blob open \(table).\(column)")
        }
        self.handle = handle
        self.size = Int(sqlite3_blob_bytes(handle))
    }

    deinit { sqlite3_blob_close(handle) }

    /// Reads up to `buffer.count` bytes at the current offset; returns how many (0 at the end).
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SQLiteError) -> Int {
        let count = min(buffer.count, size - offset)
        guard count > 0, let base = buffer.baseAddress else { return 0 }
        let code = sqlite3_blob_read(handle, base, Int32(count), Int32(offset))
        guard code == SQLITE_OK else { throw connection.error(code: code, sql: "blob read") }
        offset += count
        return count
    }
}

@available(*, unavailable)
extension BlobReader: Sendable {}
