import Foundation
import OutboxSQLite
import OutboxStore
import OutboxModel
import Testing

@Suite("SQLite layer")
struct SQLiteConnectionTests {
    @Test func storeConnectionUsesWALNormalSyncAndForeignKeys() throws {
        let fixture = try StoreFixture()
        let db = fixture.store.db
        #expect(try db.first("PRAGMA journal_mode", [], { $0.string(0) }) == "wal")
        #expect(try db.scalar("PRAGMA synchronous") == 1)
        #expect(try db.scalar("PRAGMA foreign_keys") == 1)
        #expect(try db.scalar("PRAGMA busy_timeout") ?? 0 > 0)
    }

    @Test func plainConnectionSetsPragmasAndWALIsPersistent() throws {
        let fixture = try StoreFixture(open: false)
        let db = try Connection(path: fixture.path)
        #expect(try db.scalar("PRAGMA synchronous") == 1)
        #expect(try db.scalar("PRAGMA foreign_keys") == 1)
        try db.enableWAL()
        db.close()
        let again = try Connection(path: fixture.path)
        defer { again.close() }
        #expect(try again.first("PRAGMA journal_mode", [], { $0.string(0) }) == "wal")
    }

    @Test func foreignKeysAreEnforced() throws {
        let fixture = try StoreFixture()
        #expect(throws: (any Error).self) {
            try fixture.store.db.run("INSERT INTO attempt (message_id, number, started_at, outcome) VALUES (999, 1, 0, 'sent')")
        }
        #expect(try fixture.count("attempt") == 0)
    }

    struct Boom: Error {}

    @Test func writeTransactionRollsBackWhenTheBodyThrows() throws {
        let fixture = try StoreFixture(open: false)
        let db = try Connection(path: fixture.path)
        defer { db.close() }
        try db.execute("CREATE TABLE t (x INTEGER)")
        #expect(throws: Boom.self) {
            try db.writeTransaction {
                try db.run("INSERT INTO t VALUES (?)", [1])
                try db.run("INSERT INTO t VALUES (?)", [2])
                throw Boom()
            }
        }
        #expect(try db.scalar("SELECT count(*) FROM t") == 0)
        // The connection is usable again: no transaction was left open.
        try db.writeTransaction { try db.run("INSERT INTO t VALUES (?)", [3]) }
        #expect(try db.scalar("SELECT count(*) FROM t") == 1)
    }

    @Test func writeTransactionRollsBackOnAnSQLiteErrorInside() throws {
        let fixture = try StoreFixture(open: false)
        let db = try Connection(path: fixture.path)
        defer { db.close() }
        try db.execute("CREATE TABLE t (x INTEGER UNIQUE)")
        #expect(throws: SQLiteError.self) {
            try db.writeTransaction {
                try db.run("INSERT INTO t VALUES (?)", [1])
                try db.run("INSERT INTO t VALUES (?)", [1])
            }
        }
        #expect(try db.scalar("SELECT count(*) FROM t") == 0)
    }

    @Test func errorCarriesExtendedCodeAndSQLButNoBoundValues() throws {
        let fixture = try StoreFixture(open: false)
        let db = try Connection(path: fixture.path)
        defer { db.close() }
        try db.execute("CREATE TABLE people (email TEXT UNIQUE NOT NULL)")
        let secret = "private.person@example.org"
        try db.run("INSERT INTO people (email) VALUES (?)", [secret])
        let error = try #require(throws: SQLiteError.self) {
            try db.run("INSERT INTO people (email) VALUES (?)", [secret])
        }
        #expect(error.extendedCode == 2067) // SQLITE_CONSTRAINT_UNIQUE
        #expect(error.primaryCode == 19)    // SQLITE_CONSTRAINT
        #expect(error.isUniqueViolation)
        #expect(error.sql == "INSERT INTO people (email) VALUES (?)")
        #expect(!error.description.contains(secret))
        #expect(!error.message.contains(secret))
        #expect(error.description.contains("2067"))

        let notNull = try #require(throws: SQLiteError.self) {
            try db.run("INSERT INTO people (email) VALUES (?)", [String?.none])
        }
        #expect(notNull.extendedCode == 1299) // SQLITE_CONSTRAINT_NOTNULL
    }

    @Test func prepareErrorCarriesTheSQL() throws {
        let fixture = try StoreFixture(open: false)
        let db = try Connection(path: fixture.path)
        defer { db.close() }
        let error = try #require(throws: SQLiteError.self) { try db.run("SELEC 1") }
        #expect(error.primaryCode == 1)
        #expect(error.sql == "SELEC 1")
    }

    @Test func typedBindingAndReadingRoundTrip() throws {
        let fixture = try StoreFixture(open: false)
        let db = try Connection(path: fixture.path)
        defer { db.close() }
        try db.execute("CREATE TABLE v (i INTEGER, r REAL, t TEXT, b BLOB, n TEXT)")
        try db.run("INSERT INTO v VALUES (?, ?, ?, ?, ?)",
                   [Int64.max, 1.5, "grüße ✉︎", Data([0, 1, 2, 255]), String?.none])
        let row = try #require(try db.first("SELECT i, r, t, b, n FROM v", []) {
            ($0.int64(0), $0.double(1), $0.string(2), $0.bytes(3), $0.optionalString(4), $0.isNull(4))
        })
        #expect(row.0 == Int64.max)
        #expect(row.1 == 1.5)
        #expect(row.2 == "grüße ✉︎")
        #expect(row.3 == [0, 1, 2, 255])
        #expect(row.4 == nil && row.5)
    }

    @Test func blobWriteAndReadInChunks() throws {
        let fixture = try StoreFixture(open: false)
        let db = try Connection(path: fixture.path)
        defer { db.close() }
        try db.execute("CREATE TABLE b (data BLOB NOT NULL)")
        let payload = [UInt8](patternedBytes(100_003, seed: 7))
        try db.writeTransaction {
            try db.run("INSERT INTO b (data) VALUES (zeroblob(?))", [payload.count])
            let writer = try BlobWriter(connection: db, table: "b", column: "data", rowID: db.lastInsertRowID)
            #expect(writer.size == payload.count)
            var offset = 0
            for chunk in [1, 7, 4096, 65_536] + Array(repeating: 10_000, count: 10) {
                let end = min(payload.count, offset + chunk)
                guard offset < end else { break }
                try payload[offset..<end].withUnsafeBytes { try writer.write($0) }
                offset = end
            }
            #expect(writer.offset == payload.count)
            // Writing past the end of the blob is an error, not a silent truncation.
            #expect(throws: SQLiteError.self) { try [UInt8(1)].withUnsafeBytes { try writer.write($0) } }
            try writer.close()
        }
        let reader = try BlobReader(connection: db, table: "b", column: "data", rowID: 1)
        #expect(reader.size == payload.count)
        var readBack: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4093)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
            if n == 0 { break }
            readBack += buffer[0..<n]
        }
        #expect(readBack == payload)
    }

    @Test func blobOpenOnAMissingRowFails() throws {
        let fixture = try StoreFixture(open: false)
        let db = try Connection(path: fixture.path)
        defer { db.close() }
        try db.execute("CREATE TABLE b (data BLOB)")
        #expect(throws: SQLiteError.self) { _ = try BlobReader(connection: db, table: "b", column: "data", rowID: 42) }
    }

    /// A 50 MB attachment goes into the store and comes back with the same SHA-256, and the
    /// process never holds it whole (the peak RSS grows by much less than the file).
    @Test func largeAttachmentIsStreamedInAndOut() throws {
        let fixture = try StoreFixture()
        let size = 50 * 1024 * 1024
        let path = fixture.file("big.bin")
        FileManager.default.createFile(atPath: path, contents: nil)
        let out = try #require(FileHandle(forWritingAtPath: path))
        for index in 0..<50 { try out.write(contentsOf: patternedBytes(1024 * 1024, seed: UInt64(index))) }
        try out.close()
        let expected = try SHA256.hex(ofFile: path)

        let id = try fixture.mail(files: [NewAttachment(path: path, filename: "big.bin", mimeType: "application/octet-stream")])
        let attachment = try #require(try fixture.store.attachments(id: id).first)
        #expect(attachment.size == size)
        #expect(attachment.sha256 == expected)

        let hasher = SHA256()
        let reader = try fixture.store.openBlob(sha256: expected)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        while true {
            let n = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
            if n == 0 { break }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            total += n
        }
        #expect(total == size)
        #expect(hasher.finalizeHex() == expected)

        let copy = fixture.file("copy.bin")
        try fixture.store.exportBlob(sha256: expected, to: copy)
        #expect(try SHA256.hex(ofFile: copy) == expected)
        // Memory is checked where it can be measured alone: `fiftyMegabyteAttachmentIsStreamed`
        // (CLITests) reads the peak RSS of its own `outbox` process. Here the process is shared
        // with suites running in parallel, so its peak says nothing about this test.
    }
}
