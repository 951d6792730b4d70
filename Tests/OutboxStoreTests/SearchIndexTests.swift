import Foundation
import OutboxModel
import OutboxSQLite
@testable import OutboxStore
import Testing

/// The search index follows the messages (Migrations/0002_deferred_search.sql): bulk enqueues
/// leave it behind, small ones index at once, and a search always sees every message.
@Suite("Deferred search indexing")
struct SearchIndexTests {
    static func mail(_ n: Int, word: String = "routine") -> [NewMessage] {
        [NewMessage(content: .mail(MailContent(to: ["user\(n)@example.org"], subject: "Note \(n)", textBody: "a \(word) body \(n)")))]
    }

    static func searchIDs(_ store: OutboxStore, _ text: String) throws -> [Int64] {
        try store.history(HistoryFilter(search: text)).map(\.id)
    }

    /// Every term the index holds, with the number of messages holding it. FTS5's own
    /// integrity-check cannot see a 'delete' given the wrong values on a contentless table;
    /// stale terms show up here.
    static func terms(_ store: OutboxStore) throws -> [String: Int] {
        try store.db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_terms USING fts5vocab(main, message_search, 'row')")
        return Dictionary(uniqueKeysWithValues: try store.db.rows("SELECT term, doc FROM temp.search_terms", [], { ($0.string(0), $0.int(1)) }))
    }

    @Test func aSmallEnqueueIsSearchableAtOnce() throws {
        let fixture = try StoreFixture()
        let id = try fixture.add(Self.mail(1, word: "zanzibar")[0])
        #expect(try fixture.store.searchBacklog() == 0)
        #expect(try fixture.count("message_search_docsize") == 1)
        #expect(try Self.searchIDs(fixture.store, "zanzibar") == [id])
    }

    @Test func aBulkEnqueueIsIndexedLaterAndASearchCatchesUpFirst() throws {
        let fixture = try StoreFixture()
        let batch = (1...600).map { Self.mail($0, word: $0 == 450 ? "zanzibar" : "routine") }
        let ids = try fixture.store.enqueueBatch(batch).flatMap(\.ids)
        // Stored, not yet indexed.
        #expect(try fixture.store.searchBacklog() == 600)
        #expect(try fixture.count("message_search_docsize") == 0)
        // The search indexes everything first, so it misses nothing.
        #expect(try Self.searchIDs(fixture.store, "zanzibar") == [ids[449]])
        #expect(try fixture.store.searchBacklog() == 0)
        #expect(try fixture.count("message_search_docsize") == 600)
        #expect(try fixture.store.history(HistoryFilter(search: "routine")).count == 599)
    }

    @Test func indexingGoesInChunksAndStopsWhenComplete() throws {
        let fixture = try StoreFixture()
        _ = try fixture.store.enqueueBatch((1...500).map { Self.mail($0) })
        #expect(try fixture.store.indexWaitingMessages(limit: 200) == 200)
        #expect(try fixture.store.searchBacklog() == 300)
        #expect(try fixture.store.indexWaitingMessages(limit: 200) == 200)
        #expect(try fixture.store.indexWaitingMessages(limit: 200) == 100)
        #expect(try fixture.store.indexWaitingMessages(limit: 200) == 0)
        // A later small enqueue is indexed in its own transaction again.
        let id = try fixture.add(Self.mail(501, word: "afterwards")[0])
        #expect(try fixture.store.searchBacklog() == 0)
        #expect(try Self.searchIDs(fixture.store, "afterwards") == [id])
    }

    @Test func editingAnUnindexedDraftIndexesOnlyItsNewText() throws {
        let fixture = try StoreFixture()
        let drafts = (1...300).map { n in
            [NewMessage(content: .mail(MailContent(to: ["u\(n)@example.org"], subject: "Draft \(n)", textBody: "gruel")), state: .draft)]
        }
        let ids = try fixture.store.enqueueBatch(drafts).flatMap(\.ids)
        #expect(try fixture.store.searchBacklog() == 300)
        try fixture.store.edit(draft: ids[0], content: .mail(MailContent(to: ["grace@example.org"], subject: "porridge")))
        #expect(try Self.searchIDs(fixture.store, "porridge") == [ids[0]])
        #expect(try Self.searchIDs(fixture.store, "gruel").count == 299)
        // Once indexed, an edit replaces the entry.
        try fixture.store.edit(draft: ids[1], content: .mail(MailContent(to: ["ada@example.org"], subject: "oatmeal")))
        #expect(try Self.searchIDs(fixture.store, "oatmeal") == [ids[1]])
        #expect(try Self.searchIDs(fixture.store, "gruel").count == 298)
        let terms = try Self.terms(fixture.store)
        #expect(terms["gruel"] == 298 && terms["porridge"] == 1 && terms["oatmeal"] == 1)
        #expect(terms["u1"] == nil && terms["u2"] == nil, "the replaced recipients left terms behind")
        // Discarding every draft leaves no term at all.
        _ = try fixture.store.discard(drafts: ids)
        #expect(try Self.terms(fixture.store).isEmpty)
    }

    @Test func purgingUnindexedMessagesLeavesTheIndexConsistent() throws {
        let fixture = try StoreFixture()
        let ids = try fixture.store.enqueueBatch((1...300).map { Self.mail($0) }).flatMap(\.ids)
        _ = try fixture.store.indexWaitingMessages(limit: 100)
        for id in ids { try fixture.force(id, to: .sent, finishedAt: 1_000) }
        #expect(try fixture.store.purge(olderThan: 2_000, states: []) == 300)
        #expect(try fixture.count("message_search_docsize") == 0)
        #expect(try Self.terms(fixture.store).isEmpty)
        #expect(try fixture.store.indexWaitingMessages() == 0)
        #expect(try fixture.store.searchBacklog() == 0)
        try fixture.store.db.run("INSERT INTO message_search (message_search) VALUES ('integrity-check')")
    }

    @Test func aSearchDoesNotWaitLongForALockAndSaysWhatItMissed() throws {
        let fixture = try StoreFixture()
        let first = try fixture.add(Self.mail(1, word: "zanzibar")[0])
        let other = try Connection(path: fixture.path)
        defer { other.close() }
        try other.execute("BEGIN IMMEDIATE")
        // Nothing waiting: the search is a read and works beside the writer.
        #expect(try Self.searchIDs(fixture.store, "zanzibar") == [first])
        try other.execute("COMMIT")
        _ = try fixture.store.enqueueBatch((2...400).map { Self.mail($0, word: "zanzibar") })
        try other.execute("BEGIN IMMEDIATE")
        // Messages waiting but the lock is held: the indexed part is searched, the rest counted.
        #expect(try Self.searchIDs(fixture.store, "zanzibar") == [first])
        #expect(try fixture.store.searchBacklog() == 399)
        try other.execute("ROLLBACK")
        #expect(try Self.searchIDs(fixture.store, "zanzibar").count == 400)
    }

    @Test func aDamagedRowDoesNotStopIndexing() throws {
        let fixture = try StoreFixture()
        let ids = try fixture.store.enqueueBatch((1...300).map { Self.mail($0, word: "zanzibar") }).flatMap(\.ids)
        try fixture.store.db.run("UPDATE mail_content SET recipients = 'not json' WHERE message_id = ?", [ids[10]])
        #expect(try Self.searchIDs(fixture.store, "zanzibar").count == 299)
        #expect(try fixture.store.searchBacklog() == 0)
    }

    @Test func aVersionOneDatabaseCountsEverythingAsIndexed() throws {
        let fixture = try StoreFixture(open: false)
        // As version 1 left it: messages indexed on insert, no mark.
        let db = try Connection(path: fixture.path)
        try db.execute("BEGIN")
        try db.execute(Migration.all[0].sql)
        try db.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT")
        try db.run("INSERT INTO schema_migrations VALUES (1, ?, 0)", [Migration.all[0].name])
        for n in 1...3 {
            try db.run("""
                INSERT INTO message (uid, channel, state, max_attempts, created_at, updated_at) VALUES (?, 'mail', 'queued', 10, 0, 0)
                """, ["uid-\(n)"])
            try db.run("INSERT INTO mail_content (message_id, recipients, subject) VALUES (?, '{\"to\":[\"a@example.org\"]}', ?)",
                       [Int64(n), "old \(n)"])
            try db.run("INSERT INTO message_search (rowid, subject, body, recipients, job_name) VALUES (?, ?, '', 'a@example.org', '')",
                       [Int64(n), "old \(n)"])
        }
        try db.execute("COMMIT")
        db.close()

        let store = try OutboxStore.open(path: fixture.path)
        defer { store.close() }
        #expect(try store.searchBacklog() == 0)
        #expect(try store.history(HistoryFilter(search: "old")).map(\.id) == [3, 2, 1])
        #expect(try store.db.scalar("SELECT count(*) FROM message_search_docsize") == 3)
    }
}
