import Foundation
import OutboxModel
import OutboxStore
import Testing

@Suite("Enqueue, idempotency keys and blobs")
struct EnqueueTests {
    /// FIPS 180-2's examples, and a file hashed in chunks equal to the whole.
    @Test func sha256KnownAnswers() throws {
        #expect(SHA256.hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        let fixture = try StoreFixture(open: false)
        let million = Data(repeating: UInt8(ascii: "a"), count: 1_000_000)
        let path = try fixture.write("a.bin", million)
        #expect(try SHA256.hex(ofFile: path) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func enqueueStoresContentAndIndexesIt() throws {
        let fixture = try StoreFixture()
        let id = try fixture.mail(to: "ada@example.org", subject: "Quarterly figures", body: "attached")
        let detail = try #require(try fixture.store.detail(id: id))
        #expect(detail.summary.state == .queued)
        #expect(detail.summary.channel == .mail)
        #expect(detail.summary.uid.count == 36)
        #expect(detail.content == .mail(MailContent(to: ["ada@example.org"], subject: "Quarterly figures", textBody: "attached")))
        #expect(try fixture.count("message_search_docsize") == 1)
    }

    /// Plain messages go many to a statement; keyed ones, groups and files one at a time, in
    /// between. Every result must still name the message written for its entry.
    @Test func aMixedBatchGetsEachEntrysOwnIdAndContent() throws {
        let fixture = try StoreFixture()
        let attachment = try fixture.write("a.txt", Data("hello".utf8))
        var batch: [[NewMessage]] = []
        for n in 0..<700 {
            let mail = NewMessage(content: .mail(MailContent(to: ["u\(n)@example.org"], subject: "entry \(n)")))
            let sms = NewMessage(content: .sms(SMSContent(recipient: "+49151123\(String(format: "%05d", n))", body: "entry \(n)")))
            switch n % 50 {
            case 7: batch.append([NewMessage(content: mail.content, idempotencyKey: "key-\(n)")])
            case 8: batch.append([sms, NewMessage(content: .sms(SMSContent(recipient: "+4917000000\(n % 10)", body: "entry \(n)")))])
            case 9: batch.append([NewMessage(content: mail.content, files: [NewAttachment(path: attachment, filename: "a.txt", mimeType: "text/plain")])])
            default: batch.append([n % 3 == 0 ? sms : mail])
            }
        }
        let results = try fixture.store.enqueueBatch(batch)
        #expect(results.count == batch.count)
        let ids = results.flatMap(\.ids)
        #expect(ids == Array(1...Int64(ids.count)))
        for (entry, result) in zip(batch, results) {
            #expect(!result.existing && result.ids.count == entry.count)
            for (message, id) in zip(entry, result.ids) {
                let detail = try #require(try fixture.store.detail(id: id))
                #expect(detail.content == message.content)
                #expect(detail.attachments.count == message.files.count)
            }
        }
        #expect(Set(try fixture.store.db.rows("SELECT uid FROM message", [], { $0.string(0) })).count == ids.count)
        // The same batch again: keyed entries come back as they were, the rest are new.
        let again = try fixture.store.enqueueBatch(batch)
        for ((entry, first), second) in zip(zip(batch, results), again) {
            let keyed = entry[0].idempotencyKey != nil
            #expect(second.existing == keyed)
            #expect(keyed ? second.ids == first.ids : second.ids.allSatisfy { $0 > Int64(ids.count) })
        }
        #expect(again.filter(\.existing).count == 14)
    }

    @Test func sameKeyReturnsTheSameIdAndWritesNothing() throws {
        let fixture = try StoreFixture()
        let message = NewMessage(content: .mail(MailContent(to: ["ada@example.org"], subject: "once")), idempotencyKey: "order-42")
        let first = try fixture.store.enqueue([message])
        #expect(!first.existing)
        let before = try fixture.counts()
        let second = try fixture.store.enqueue([message])
        #expect(second.existing)
        #expect(second.ids == first.ids)
        #expect(try fixture.counts() == before)
        // A different message under the same key still returns the first one.
        let other = NewMessage(content: .sms(SMSContent(recipient: "+4915112345678", body: "x")), idempotencyKey: "order-42")
        #expect(try fixture.store.enqueue([other]).ids == first.ids)
        #expect(try fixture.counts() == before)
    }

    @Test func keyOfAGroupReturnsEveryIdOfTheGroup() throws {
        let fixture = try StoreFixture()
        var messages = ["+4915112345678", "+4915112345679", "+4915112345670"].map {
            NewMessage(content: .sms(SMSContent(recipient: $0, body: "meeting moved")))
        }
        messages[0].idempotencyKey = "fanout-1"
        let first = try fixture.store.enqueue(messages)
        #expect(first.ids.count == 3)
        let before = try fixture.counts()
        let again = try fixture.store.enqueue(messages)
        #expect(again.existing && again.ids == first.ids)
        #expect(try fixture.counts() == before)
    }

    @Test func batchKeysAreHonouredPerEntry() throws {
        let fixture = try StoreFixture()
        let keyed = NewMessage(content: .mail(MailContent(to: ["a@example.org"], subject: "k")), idempotencyKey: "k1")
        let first = try fixture.store.enqueueBatch([[keyed]])
        let plain = NewMessage(content: .mail(MailContent(to: ["a@example.org"], subject: "plain")))
        let results = try fixture.store.enqueueBatch([[keyed], [plain]])
        #expect(results.map(\.existing) == [true, false])
        #expect(results[0].ids == first[0].ids)
        #expect(try fixture.count("message") == 2)
    }

    @Test func identicalFilesAreStoredOnce() throws {
        let fixture = try StoreFixture()
        let bytes = patternedBytes(300_000, seed: 1)
        let a = try fixture.write("a.pdf", bytes)
        let b = try fixture.write("copy-of-a.pdf", bytes)
        let c = try fixture.write("c.pdf", patternedBytes(1000, seed: 2))
        try fixture.mail(files: [NewAttachment(path: a, filename: "a.pdf", mimeType: "application/pdf")])
        try fixture.mail(files: [NewAttachment(path: b, filename: "b.pdf", mimeType: "application/pdf"),
                                 NewAttachment(path: a, filename: "again.pdf", mimeType: "application/pdf"),
                                 NewAttachment(path: c, filename: "c.pdf", mimeType: "application/pdf")])
        #expect(try fixture.count("attachment") == 4)
        #expect(try fixture.count("blob") == 2)
        #expect(try fixture.store.db.scalar("SELECT sum(length(data)) FROM blob") == 301_000)
    }

    @Test func emptyFileIsStored() throws {
        let fixture = try StoreFixture()
        let empty = try fixture.write("empty.txt", Data())
        let id = try fixture.mail(files: [NewAttachment(path: empty, filename: "empty.txt", mimeType: "text/plain")])
        #expect(try fixture.store.attachments(id: id).first?.size == 0)
        #expect(try fixture.count("blob") == 1)
    }

    @Test func missingAttachmentIsExit66AndWritesNothing() throws {
        let fixture = try StoreFixture()
        try fixture.mail()
        let before = try fixture.counts()
        let error = try #require(throws: OutboxError.self) {
            try fixture.mail(files: [NewAttachment(path: fixture.file("nope.pdf"), filename: "nope.pdf", mimeType: "application/pdf")])
        }
        #expect(error.code == .noInput)
        #expect(try fixture.counts() == before)
    }

    @Test func aFailingMessageInABatchRollsBackTheWholeBatch() throws {
        let fixture = try StoreFixture()
        let good = NewMessage(content: .mail(MailContent(to: ["a@example.org"], subject: "good")))
        var bad = good
        bad.state = .sent // not allowed for a new message
        #expect(throws: OutboxError.self) { try fixture.store.enqueueBatch([[good], [good], [bad]]) }
        #expect(try fixture.count("message") == 0)
        #expect(try fixture.count("message_search_docsize") == 0)
    }

    @Test func notBeforeSetsTheDueTime() throws {
        let fixture = try StoreFixture()
        let later = Timestamp.now() + 3_600_000
        let id = try fixture.add(NewMessage(content: .mail(MailContent(to: ["a@example.org"], subject: "later")), notBefore: later))
        #expect(try fixture.store.summary(id: id)?.nextAttemptAt == later)
    }
}

@Suite("Purge")
struct PurgeTests {
    static let old: Milliseconds = 1_000_000
    static let cutoff: Milliseconds = 2_000_000

    @Test func purgeRemovesOldFinishedMessagesInBatchesAndTheirBlobs() throws {
        let fixture = try StoreFixture()
        let shared = try fixture.write("shared.bin", patternedBytes(5000, seed: 3))
        let lonely = try fixture.write("lonely.bin", patternedBytes(5000, seed: 4))
        var oldIDs: [Int64] = []
        for index in 0..<5 {
            let files = [NewAttachment(path: index == 0 ? lonely : shared, filename: "f", mimeType: "application/octet-stream")]
            let id = try fixture.mail(subject: "old \(index)", files: files)
            try fixture.force(id, to: [.sent, .failed, .cancelled][index % 3], finishedAt: Self.old)
            oldIDs.append(id)
        }
        // Still uses the shared blob, and is not finished: must survive.
        let keeper = try fixture.mail(subject: "keeper", files: [NewAttachment(path: shared, filename: "f", mimeType: "application/octet-stream")])
        let recent = try fixture.mail(subject: "recent")
        try fixture.force(recent, to: .sent, finishedAt: Self.cutoff + 1)
        try fixture.store.db.run("INSERT INTO attempt (message_id, number, started_at, outcome) VALUES (?, 1, 0, 'sent')", [oldIDs[0]])

        #expect(try fixture.store.purgeCandidates(olderThan: Self.cutoff, states: []).map(\.id) == oldIDs)
        #expect(try fixture.store.purge(olderThan: Self.cutoff, states: [], batchSize: 2) == 5)
        #expect(try fixture.store.history(HistoryFilter()).map(\.id).sorted() == [keeper, recent])
        #expect(try fixture.count("blob") == 1)
        #expect(try fixture.count("attempt") == 0)
        #expect(try fixture.count("mail_content") == 2)
        #expect(try fixture.count("message_search_docsize") == 2)
        #expect(try fixture.store.history(HistoryFilter(search: "old")).isEmpty)
    }

    @Test func purgeWithAnExactMultipleOfTheBatchSize() throws {
        let fixture = try StoreFixture()
        for _ in 0..<4 { try fixture.force(try fixture.mail(), to: .sent, finishedAt: Self.old) }
        #expect(try fixture.store.purge(olderThan: Self.cutoff, states: [], batchSize: 2) == 4)
        #expect(try fixture.count("message") == 0)
    }

    @Test func purgeHonoursTheStateFilterAndNeverTouchesLiveMessages() throws {
        let fixture = try StoreFixture()
        let sent = try fixture.mail(); try fixture.force(sent, to: .sent, finishedAt: Self.old)
        let failed = try fixture.mail(); try fixture.force(failed, to: .failed, finishedAt: Self.old)
        let queued = try fixture.mail(); try fixture.store.db.run("UPDATE message SET updated_at = ? WHERE id = ?", [Self.old, queued])
        let sending = try fixture.mail(); try fixture.force(sending, to: .sending); try fixture.store.db.run("UPDATE message SET updated_at = ? WHERE id = ?", [Self.old, sending])
        #expect(try fixture.store.purge(olderThan: Self.cutoff, states: [.failed]) == 1)
        #expect(try fixture.store.summary(id: failed) == nil)
        #expect(try fixture.store.purge(olderThan: Self.cutoff, states: [.queued, .sending]) == 0)
        #expect(try fixture.store.purge(olderThan: Self.cutoff, states: []) == 1)
        #expect(try fixture.store.history(HistoryFilter()).map(\.id).sorted() == [queued, sending])
    }
}
