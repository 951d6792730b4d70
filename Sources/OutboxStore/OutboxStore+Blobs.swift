import FoundationEssentials
import OutboxModel
import OutboxSQLite

extension OutboxStore {
    /// Size of the chunks files are copied in: large files never sit in memory whole.
    static let chunkSize = 1 << 20

    /// A file hashed before its write transaction, so the lock is not held while hashing.
    public struct HashedFile: Sendable {
        public let path: String
        public let size: Int
        public let sha256: String
    }

    /// Reads `path` once to learn its size and SHA-256. Missing or unreadable → exit 66.
    public static func hashFile(_ path: String) throws -> HashedFile {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw OutboxError.noInput("cannot read \(path): no such file")
        }
        guard !isDirectory else { throw OutboxError.noInput("cannot read \(path): it is a directory") }
        guard let handle = SystemFile(forReadingAtPath: path) else {
            throw OutboxError.noInput("cannot read \(path): permission denied")
        }
        defer { try? handle.close() }
        let hasher = SHA256()
        var size = 0
        do {
            while let chunk = try handle.read(upToCount: chunkSize), !chunk.isEmpty {
                hasher.update(chunk)
                size += chunk.count
            }
        } catch {
            throw OutboxError.noInput("cannot read \(path): \(ErrorText.describe(error))")
        }
        return HashedFile(path: path, size: size, sha256: hasher.finalizeHex())
    }

    /// Stores a hashed file's bytes as a content-addressed blob (once, however many messages use
    /// it), copying in chunks with incremental blob I/O. Call inside a write transaction.
    func storeBlob(_ file: HashedFile) throws {
        if try db.scalar("SELECT 1 FROM blob WHERE sha256 = ?", [file.sha256]) != nil { return }
        try db.run("INSERT INTO blob (sha256, size, data) VALUES (?, ?, zeroblob(?))", [file.sha256, file.size, file.size])
        let rowID = db.lastInsertRowID
        guard file.size > 0 else { return }
        guard let handle = SystemFile(forReadingAtPath: file.path) else {
            throw OutboxError.noInput("cannot read \(file.path): it disappeared while being stored")
        }
        defer { try? handle.close() }
        let writer = try BlobWriter(connection: db, table: "blob", column: "data", rowID: rowID)
        let hasher = SHA256()
        while writer.offset < file.size, let chunk = try handle.read(upToCount: min(Self.chunkSize, file.size - writer.offset)), !chunk.isEmpty {
            hasher.update(chunk)
            try chunk.withUnsafeBytes { try writer.write($0) }
        }
        try writer.close()
        // The file changed between hashing and copying: refuse rather than store wrong bytes.
        guard writer.offset == file.size, hasher.finalizeHex() == file.sha256 else {
            throw OutboxError.io("\(file.path) changed while it was being stored; nothing was written. Try again")
        }
    }

    /// Opens a stored blob for chunked reading. The reader is valid while the store is open and
    /// no write transaction on this connection deletes the blob.
    public func openBlob(sha256: String) throws -> BlobReader {
        guard let rowID = try db.first("SELECT rowid FROM blob WHERE sha256 = ?", [sha256], { $0.int64(0) }) else {
            throw OutboxError(.software, "blob \(sha256) is missing from the database")
        }
        return try BlobReader(connection: db, table: "blob", column: "data", rowID: rowID)
    }

    /// Copies a stored blob to a file in chunks.
    public func exportBlob(sha256: String, to path: String) throws {
        let reader = try openBlob(sha256: sha256)
        guard let out = SystemFile(creatingAtPath: path) else {
            throw OutboxError(.cantCreate, "cannot create \(path)")
        }
        defer { try? out.close() }
        var buffer = [UInt8](repeating: 0, count: Self.chunkSize)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
            if count == 0 { break }
            try out.write(contentsOf: buffer[0..<count])
        }
    }
}
