import Foundation
import OutboxSQLite
import OutboxStore

/// A fresh temporary directory holding one database path (`db/outbox.sqlite`, not created until
/// something opens it) plus `home`, `config` and `data` directories for a CLI run. Removed when
/// the value goes away.
public final class TemporaryDatabase: @unchecked Sendable {
    public let directory: String
    public let path: String

    public init(_ label: String = "test") {
        directory = NSTemporaryDirectory() + "outbox-\(label)-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: directory + "/db", withIntermediateDirectories: true)
        path = directory + "/db/outbox.sqlite"
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// A path inside the temporary directory.
    public func file(_ name: String) -> String { directory + "/" + name }

    /// Writes `contents` to a file in the temporary directory and returns its path.
    @discardableResult
    public func write(_ name: String, _ contents: String) -> String { write(name, Data(contents.utf8)) }

    @discardableResult
    public func write(_ name: String, _ contents: Data) -> String {
        let path = file(name)
        try! FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                 withIntermediateDirectories: true)
        try! contents.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Opens the store (creating and migrating it).
    public func open() throws -> OutboxStore { try OutboxStore.open(path: path) }

    public var exists: Bool { FileManager.default.fileExists(atPath: path) }

    /// Rows per table (every ordinary table plus the FTS index's document count): the "nothing
    /// was written" check compares two of these. Empty when the database does not exist.
    public func rowCounts() throws -> [String: Int] {
        guard exists else { return [:] }
        let db = try Connection(path: path, create: false)
        defer { db.close() }
        var counts: [String: Int] = [:]
        let tables = try db.rows("""
            SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'
            AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'message_search_%'
            """) { $0.string(0) }
        for table in tables { counts[table] = try db.scalar("SELECT count(*) FROM \"\(table)\"") ?? 0 }
        if tables.contains("message") {
            counts["message_search_docsize"] = try db.scalar("SELECT count(*) FROM message_search_docsize") ?? 0
        }
        return counts
    }

    /// The state of every message, by id.
    public func states() throws -> [Int64: String] {
        guard exists else { return [:] }
        let db = try Connection(path: path, create: false)
        defer { db.close() }
        let rows = try db.rows("SELECT id, state FROM message") { ($0.int64(0), $0.string(1)) }
        return Dictionary(uniqueKeysWithValues: rows)
    }

    /// Runs `sql` on its own connection (to put messages in states only the worker reaches).
    public func execute(_ sql: String) throws {
        let db = try Connection(path: path, create: false)
        defer { db.close() }
        try db.execute(sql)
    }

    /// The integer `sql` returns.
    public func scalar(_ sql: String) throws -> Int? {
        let db = try Connection(path: path, create: false)
        defer { db.close() }
        return try db.scalar(sql)
    }
}

/// SHA-256 of a file's bytes, hex (for "the file was not changed").
public func fileDigest(_ path: String) throws -> String { try SHA256.hex(ofFile: path) }
