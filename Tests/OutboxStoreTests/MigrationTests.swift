import Foundation
import OutboxModel
import OutboxSQLite
@testable import OutboxStore
import Testing

@Suite("Migrations")
struct MigrationTests {
    static let migrationsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Migrations")

    @Test func embeddedSetEqualsTheDirectoryByteForByte() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.migrationsDirectory.path)
            .filter { $0.hasSuffix(".sql") }.sorted()
        #expect(!files.isEmpty)
        #expect(Migration.all.map(\.name) == files)
        for (migration, file) in zip(Migration.all, files) {
            let bytes = try Data(contentsOf: Self.migrationsDirectory.appendingPathComponent(file))
            #expect(Data(migration.sql.utf8) == bytes, "embedded \(migration.name) differs from Migrations/\(file)")
            #expect(migration.version == Int(file.prefix(while: \.isNumber)))
        }
        // Versions are 1, 2, 3… in order, none skipped or repeated.
        #expect(Migration.all.map(\.version) == Array(1...Migration.all.count))
    }

    @Test func freshDatabaseHasEveryMigrationApplied() throws {
        let fixture = try StoreFixture()
        let status = try Migrator().check(fixture.store.db, path: fixture.path)
        #expect(status.pending.isEmpty)
        #expect(status.applied.map(\.version) == Migration.all.map(\.version))
        #expect(try fixture.store.db.first("SELECT value FROM outbox_meta WHERE key = 'application'", [], { $0.string(0) }) == "outbox")
    }

    @Test func applyingTwiceIsANoOp() throws {
        let fixture = try StoreFixture()
        try fixture.mail()
        let schema = { try fixture.store.db.rows("SELECT type, name, sql FROM sqlite_schema ORDER BY name", [], { "\($0.string(0)) \($0.string(1)) \($0.optionalString(2) ?? "")" }) }
        let migrations = { try fixture.store.db.rows("SELECT version, name, applied_at FROM schema_migrations", [], { "\($0.int(0)) \($0.string(1)) \($0.int(2))" }) }
        let schemaBefore = try schema(), migrationsBefore = try migrations(), countsBefore = try fixture.counts()

        #expect(try Migrator().migrate(fixture.store.db, path: fixture.path).isEmpty)
        fixture.closeStore()
        let reopened = try OutboxStore.open(path: fixture.path)
        defer { reopened.close() }
        #expect(try Migrator().migrate(reopened.db, path: fixture.path).isEmpty)
        let schemaAfter = try reopened.db.rows("SELECT type, name, sql FROM sqlite_schema ORDER BY name", [], { "\($0.string(0)) \($0.string(1)) \($0.optionalString(2) ?? "")" })
        let migrationsAfter = try reopened.db.rows("SELECT version, name, applied_at FROM schema_migrations", [], { "\($0.int(0)) \($0.string(1)) \($0.int(2))" })
        #expect(schemaAfter == schemaBefore)
        #expect(migrationsAfter == migrationsBefore)
        #expect(try reopened.db.scalar("SELECT count(*) FROM message") == countsBefore["message"])
    }

    @Test func pendingMigrationIsAppliedInOrderWithItsRow() throws {
        let fixture = try StoreFixture()
        let extra = Migration(version: Migration.all.count + 1, name: "\(Migration.all.count + 1)_test_extra.sql",
                              sql: "CREATE TABLE test_extra (x INTEGER);")
        let migrator = Migrator(migrations: Migration.all + [extra])
        #expect(try migrator.check(fixture.store.db, path: fixture.path).pending == [extra])
        #expect(try migrator.migrate(fixture.store.db, path: fixture.path) == [extra])
        #expect(try fixture.store.db.scalar("SELECT count(*) FROM schema_migrations WHERE version = ?", [extra.version]) == 1)
        #expect(try migrator.migrate(fixture.store.db, path: fixture.path).isEmpty)
    }

    @Test func failingMigrationLeavesNoTraceOfItself() throws {
        let fixture = try StoreFixture()
        let broken = Migration(version: Migration.all.count + 1, name: "\(Migration.all.count + 1)_broken.sql",
                               sql: "CREATE TABLE half_done (x INTEGER); THIS IS NOT SQL;")
        #expect(throws: (any Error).self) { try Migrator(migrations: Migration.all + [broken]).migrate(fixture.store.db, path: fixture.path) }
        #expect(try fixture.store.db.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'half_done'") == 0)
        #expect(try fixture.store.db.scalar("SELECT count(*) FROM schema_migrations WHERE version = ?", [broken.version]) == 0)
    }

    /// The main file's bytes, and which files sit next to it.
    static func snapshot(_ fixture: StoreFixture) throws -> (String, [String]) {
        (try SHA256.hex(ofFile: fixture.path), try FileManager.default.contentsOfDirectory(atPath: fixture.directory).sorted())
    }

    @Test func databaseNewerThanTheBinaryIsRefusedUnchanged() throws {
        let fixture = try StoreFixture()
        try fixture.mail()
        try fixture.store.db.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                                 [9999, "9999_from_the_future.sql", Timestamp.now()])
        fixture.closeStore()
        let before = try Self.snapshot(fixture)
        let error = try #require(throws: OutboxError.self) { _ = try OutboxStore.open(path: fixture.path) }
        #expect(error.code == .dataError)
        #expect(try Self.snapshot(fixture) == before)
        // Without migrating, too.
        #expect(throws: OutboxError.self) { _ = try OutboxStore.open(path: fixture.path, migrate: false) }
        #expect(try Self.snapshot(fixture) == before)
    }

    @Test func fileThatIsNotSQLiteIsRefusedUnchanged() throws {
        let fixture = try StoreFixture(open: false)
        try fixture.write("outbox.sqlite", Data(String(repeating: "this is a shopping list, not a database\n", count: 200).utf8))
        let before = try Self.snapshot(fixture)
        let error = try #require(throws: OutboxError.self) { _ = try OutboxStore.open(path: fixture.path) }
        #expect(error.code == .dataError)
        #expect(try Self.snapshot(fixture) == before)
    }

    @Test func foreignSQLiteDatabaseIsRefusedUnchanged() throws {
        let fixture = try StoreFixture(open: false)
        let other = try Connection(path: fixture.path)
        try other.execute("CREATE TABLE recipes (name TEXT); INSERT INTO recipes VALUES ('bread');")
        other.close()
        let before = try Self.snapshot(fixture)
        let error = try #require(throws: OutboxError.self) { _ = try OutboxStore.open(path: fixture.path) }
        #expect(error.code == .dataError)
        #expect(try Self.snapshot(fixture) == before)
    }

    @Test func sqliteDatabaseWithAnImpostorMetaTableIsRefused() throws {
        let fixture = try StoreFixture(open: false)
        let other = try Connection(path: fixture.path)
        try other.execute("""
            CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at INTEGER);
            CREATE TABLE outbox_meta (key TEXT PRIMARY KEY, value TEXT); INSERT INTO outbox_meta VALUES ('application', 'something-else');
            """)
        other.close()
        let before = try Self.snapshot(fixture)
        #expect(throws: OutboxError.self) { _ = try OutboxStore.open(path: fixture.path) }
        #expect(try Self.snapshot(fixture) == before)
    }

    @Test func databaseDirectoryThatCannotBeCreatedIsExit73() throws {
        let fixture = try StoreFixture(open: false)
        try fixture.write("plain-file", Data("x".utf8))
        let error = try #require(throws: OutboxError.self) { _ = try OutboxStore.open(path: fixture.file("plain-file/sub/outbox.sqlite")) }
        #expect(error.code == .cantCreate)
    }

    @Test func twoStoresOpeningOneNewFileAtOnceBothSucceed() async throws {
        let fixture = try StoreFixture(open: false)
        let path = fixture.path
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { let store = try OutboxStore.open(path: path); store.close() }
            }
            try await group.waitForAll()
        }
        let store = try OutboxStore.open(path: path)
        defer { store.close() }
        #expect(try store.db.scalar("SELECT count(*) FROM schema_migrations") == Migration.all.count)
    }
}
