import Foundation
import OutboxModel
import OutboxStore
import Testing

@Suite("Store state changes")
struct StateChangeTests {
    /// One message in every state, by state.
    static func oneOfEach(_ fixture: StoreFixture) throws -> [MessageState: Int64] {
        var ids: [MessageState: Int64] = [:]
        for state in MessageState.allCases {
            let id = try fixture.mail(subject: "in \(state.rawValue)", state: state == .draft ? .draft : .queued)
            if state != .draft && state != .queued { try fixture.force(id, to: state) }
            ids[state] = id
        }
        return ids
    }

    /// Everything a change could touch: every summary plus the row counts.
    static func snapshot(_ fixture: StoreFixture) throws -> ([MessageSummary], [String: Int]) {
        (try fixture.store.history(HistoryFilter()), try fixture.counts())
    }

    static let defaults = Dictionary(uniqueKeysWithValues: Channel.allCases.map { ($0, RetryPolicy.defaults(for: $0)) })

    @Test func cancelMovesDraftsAndQueuedOnly() throws {
        let fixture = try StoreFixture()
        let ids = try Self.oneOfEach(fixture)
        for state in MessageState.allCases {
            let before = try Self.snapshot(fixture)
            if state == .draft || state == .queued {
                try fixture.store.cancel([ids[state]!])
                #expect(try fixture.state(ids[state]!) == .cancelled)
                #expect(try fixture.store.summary(id: ids[state]!)?.finishedAt != nil)
            } else {
                let error = try #require(throws: OutboxError.self) { try fixture.store.cancel([ids[state]!]) }
                #expect(error.code == .dataError)
                #expect(try Self.snapshot(fixture) == before, "cancel of a \(state.rawValue) message changed something")
            }
        }
    }

    @Test func retryMovesFailedAndCancelledOnly() throws {
        let fixture = try StoreFixture()
        let ids = try Self.oneOfEach(fixture)
        for state in MessageState.allCases {
            let before = try Self.snapshot(fixture)
            if state == .failed || state == .cancelled {
                try fixture.store.retry([ids[state]!], policies: Self.defaults)
                #expect(try fixture.state(ids[state]!) == .queued)
            } else {
                #expect(throws: OutboxError.self) { try fixture.store.retry([ids[state]!], policies: Self.defaults) }
                #expect(try Self.snapshot(fixture) == before, "retry of a \(state.rawValue) message changed something")
            }
        }
    }

    @Test func sendDiscardAndEditRefuseAnythingButDrafts() throws {
        let fixture = try StoreFixture()
        let ids = try Self.oneOfEach(fixture)
        let before = try Self.snapshot(fixture)
        for state in MessageState.allCases where state != .draft {
            let id = ids[state]!
            #expect(throws: OutboxError.self) { try fixture.store.send(drafts: [id]) }
            #expect(throws: OutboxError.self) { try fixture.store.discard(drafts: [id]) }
            #expect(throws: OutboxError.self) {
                try fixture.store.edit(draft: id, content: .mail(MailContent(to: ["x@example.org"], subject: "changed")))
            }
        }
        #expect(try Self.snapshot(fixture) == before)
    }

    @Test func severalIdsAreAllOrNothing() throws {
        let fixture = try StoreFixture()
        let queued = try fixture.mail()
        let draft = try fixture.mail(state: .draft)
        let sent = try fixture.mail()
        try fixture.force(sent, to: .sent)
        let failed = try fixture.mail()
        try fixture.force(failed, to: .failed)
        let before = try Self.snapshot(fixture)

        #expect(throws: OutboxError.self) { try fixture.store.cancel([queued, draft, sent]) }
        #expect(throws: OutboxError.self) { try fixture.store.cancel([queued, 9999]) }
        #expect(throws: OutboxError.self) { try fixture.store.retry([failed, queued], policies: Self.defaults) }
        #expect(throws: OutboxError.self) { try fixture.store.send(drafts: [draft, queued]) }
        #expect(throws: OutboxError.self) { try fixture.store.discard(drafts: [draft, sent]) }
        #expect(try Self.snapshot(fixture) == before)
    }

    @Test func sendQueuesDraftsWithTheChannelBudget() throws {
        let fixture = try StoreFixture()
        let draft = try fixture.mail(state: .draft)
        #expect(try fixture.store.summary(id: draft)?.nextAttemptAt == nil)
        var policies = Self.defaults
        policies[.mail]?.maxAttempts = 3
        try fixture.store.send(drafts: [draft], policies: policies)
        let summary = try #require(try fixture.store.summary(id: draft))
        #expect(summary.state == .queued)
        #expect(summary.maxAttempts == 3)
        #expect(summary.nextAttemptAt != nil)
    }

    @Test func discardDeletesTheDraftItsSearchEntryAndUnusedBlobs() throws {
        let fixture = try StoreFixture()
        let file = try fixture.write("a.txt", Data("only in the draft".utf8))
        let draft = try fixture.mail(subject: "zanzibar", state: .draft,
                                     files: [NewAttachment(path: file, filename: "a.txt", mimeType: "text/plain")])
        #expect(try fixture.count("blob") == 1)
        try fixture.store.discard(drafts: [draft])
        #expect(try fixture.store.summary(id: draft) == nil)
        #expect(try fixture.count("blob") == 0)
        #expect(try fixture.count("attachment") == 0)
        #expect(try fixture.store.history(HistoryFilter(search: "zanzibar")).isEmpty)
        #expect(try fixture.count("message_search_docsize") == 0)
    }

    @Test func editReplacesContentAndReindexes() throws {
        let fixture = try StoreFixture()
        let draft = try fixture.mail(subject: "marmalade", state: .draft)
        try fixture.store.edit(draft: draft, content: .mail(MailContent(to: ["grace@example.org"], subject: "porridge")))
        #expect(try fixture.store.history(HistoryFilter(search: "marmalade")).isEmpty)
        #expect(try fixture.store.history(HistoryFilter(search: "porridge")).map(\.id) == [draft])
        #expect(try fixture.store.summary(id: draft)?.recipients == ["grace@example.org"])
        // A draft cannot change channel.
        #expect(throws: OutboxError.self) {
            try fixture.store.edit(draft: draft, content: .sms(SMSContent(recipient: "+4915112345678", body: "x")))
        }
    }

    @Test func retryKeepsTheAttemptHistoryAndResetsTheBudget() throws {
        let fixture = try StoreFixture()
        let id = try fixture.mail()
        for number in 1...3 {
            try fixture.store.db.run("""
                INSERT INTO attempt (message_id, number, started_at, finished_at, outcome, error_class, code, detail)
                VALUES (?, ?, ?, ?, ?, 'permanent', 'smtp 550 5.1.1', 'no such user')
                """, [id, number, 1000 * number, 1000 * number + 5, number == 3 ? "failed" : "retry"])
        }
        try fixture.store.db.run("UPDATE message SET attempts = 3, state = 'failed', finished_at = 1, last_error = 'smtp 550' WHERE id = ?", [id])
        try fixture.store.retry([id], policies: Self.defaults, now: 5_000_000)
        let detail = try #require(try fixture.store.detail(id: id))
        #expect(detail.summary.state == .queued)
        #expect(detail.summary.attempts == 0)
        #expect(detail.summary.finishedAt == nil)
        #expect(detail.summary.nextAttemptAt == 5_000_000)
        #expect(detail.attempts.map(\.number) == [1, 2, 3])
        #expect(detail.attempts.last?.code == "smtp 550 5.1.1")
    }

    @Test func retryRedirectsAPrintJob() throws {
        let fixture = try StoreFixture()
        let id = try fixture.printJob(destination: "office")
        try fixture.force(id, to: .failed)
        try fixture.store.retry([id], policies: Self.defaults, destination: "pdf")
        #expect(try fixture.store.summary(id: id)?.destination == "pdf")
    }
}
