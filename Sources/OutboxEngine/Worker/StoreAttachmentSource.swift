import OutboxModel
import OutboxSQLite

/// Streams attachment bytes straight from the database, for sinks running on delivery threads.
///
/// The worker's own store connection belongs to its serial queue, so each stream opens its own
/// read-only connection: streams on different threads never share a handle, and a large file
/// is read in chunks with incremental blob I/O instead of being loaded whole.
public struct StoreAttachmentSource: AttachmentSource {
    public let databasePath: String

    public init(databasePath: String) { self.databasePath = databasePath }

    public func open(messageID: Int64, position: Int) throws -> any ByteStream {
        let connection = try Connection(path: databasePath, create: false, readOnly: true)
        do {
            guard let rowID = try connection.first("""
                SELECT b.rowid FROM attachment a JOIN blob b ON b.sha256 = a.sha256 WHERE a.message_id = ? AND a.position = ?
                """, [messageID, position], { $0.int64(0) }) else {
                throw OutboxError(.software, "message \(messageID) has no stored file at position \(position)")
            }
            let reader = try BlobReader(connection: connection, table: "blob", column: "data", rowID: rowID)
            return StoredBlobStream(connection: connection, reader: reader)
        } catch {
            connection.close()
            throw error
        }
    }
}

/// One open blob and the connection it reads through; closing it closes both, in that order.
final class StoredBlobStream: ByteStream {
    private var connection: Connection?
    private var reader: BlobReader?
    let size: Int

    init(connection: Connection, reader: BlobReader) {
        self.connection = connection
        self.reader = reader
        self.size = reader.size
    }

    deinit { close() }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let reader else { return 0 }
        return try reader.read(into: buffer)
    }

    func close() {
        reader = nil
        connection?.close()
        connection = nil
    }
}
