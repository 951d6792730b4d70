import Foundation
import OutboxModel
import OutboxStore
import Testing

@Suite("History filters and search")
struct HistoryTests {
    /// mail(1, t=1000) sms(2, t=2000) print(3, t=3000) mail(4, t=4000, failed) sms(5, t=5000, draft)
    static func seeded() throws -> StoreFixture {
        let fixture = try StoreFixture()
        let store = fixture.store!
        _ = try store.enqueue([NewMessage(content: .mail(MailContent(to: ["Ada Lovelace <ada@example.org>"], cc: ["charles@example.net"],
                                                                     subject: "Analytical engine notes", textBody: "The Bernoulli numbers")))], now: 1000)
        _ = try store.enqueue([NewMessage(content: .sms(SMSContent(recipient: "+4915112345678", body: "Running late, café at ten")))], now: 2000)
        let job = PrintJob(info: PrintInfo(jobName: "Quarterly report"),
                           content: .renderer(PageRenderer(formatters: [PrintFormatter(kind: .text, text: "Revenue table")])))
        _ = try store.enqueue([NewMessage(content: .print(job), destination: "office-laser")], now: 3000)
        _ = try store.enqueue([NewMessage(content: .mail(MailContent(to: ["grace@example.com"], bcc: ["audit@example.org"],
                                                                     subject: "Compiler invoice", textBody: "Payment overdue",
                                                                     htmlBody: "<p>Payment <b>overdue</b></p>")))], now: 4000)
        try fixture.force(4, to: .failed)
        _ = try store.enqueue([NewMessage(content: .sms(SMSContent(recipient: "+14155550123", body: "Draft reply")), state: .draft)], now: 5000)
        return fixture
    }

    static func ids(_ fixture: StoreFixture, _ filter: HistoryFilter) throws -> [Int64] {
        try fixture.store.history(filter).map(\.id)
    }

    @Test func everythingNewestFirst() throws {
        let f = try Self.seeded()
        #expect(try Self.ids(f, HistoryFilter()) == [5, 4, 3, 2, 1])
    }

    @Test func stateFilter() throws {
        let f = try Self.seeded()
        #expect(try Self.ids(f, HistoryFilter(states: [.failed])) == [4])
        #expect(try Self.ids(f, HistoryFilter(states: [.queued])) == [3, 2, 1])
        #expect(try Self.ids(f, HistoryFilter(states: [.failed, .draft])) == [5, 4])
        #expect(try Self.ids(f, HistoryFilter(states: [.sent])).isEmpty)
    }

    @Test func channelFilter() throws {
        let f = try Self.seeded()
        #expect(try Self.ids(f, HistoryFilter(channels: [.mail])) == [4, 1])
        #expect(try Self.ids(f, HistoryFilter(channels: [.sms])) == [5, 2])
        #expect(try Self.ids(f, HistoryFilter(channels: [.print])) == [3])
        #expect(try Self.ids(f, HistoryFilter(channels: [.print, .sms])) == [5, 3, 2])
    }

    @Test func sinceAndUntil() throws {
        let f = try Self.seeded()
        #expect(try Self.ids(f, HistoryFilter(since: 3000)) == [5, 4, 3])
        #expect(try Self.ids(f, HistoryFilter(until: 3000)) == [2, 1])
        #expect(try Self.ids(f, HistoryFilter(since: 2000, until: 4001)) == [4, 3, 2])
    }

    @Test func recipientFilter() throws {
        let f = try Self.seeded()
        #expect(try Self.ids(f, HistoryFilter(recipient: "ada@example.org")) == [1])
        #expect(try Self.ids(f, HistoryFilter(recipient: "ADA@EXAMPLE.ORG")) == [1])
        #expect(try Self.ids(f, HistoryFilter(recipient: "charles")) == [1])          // cc
        #expect(try Self.ids(f, HistoryFilter(recipient: "audit@example.org")) == [4]) // bcc
        #expect(try Self.ids(f, HistoryFilter(recipient: "+49 151 1234 5678")) == [2]) // formatted number
        #expect(try Self.ids(f, HistoryFilter(recipient: "office")) == [3])            // printer
        #expect(try Self.ids(f, HistoryFilter(recipient: "nobody@example.org")).isEmpty)
    }

    @Test func fullTextSearch() throws {
        let f = try Self.seeded()
        #expect(try Self.ids(f, HistoryFilter(search: "bernoulli")) == [1])          // body
        #expect(try Self.ids(f, HistoryFilter(search: "analytical")) == [1])         // subject
        #expect(try Self.ids(f, HistoryFilter(search: "cafe")) == [2])               // diacritics removed
        #expect(try Self.ids(f, HistoryFilter(search: "quarterly")) == [3])          // job name
        #expect(try Self.ids(f, HistoryFilter(search: "revenue")) == [3])            // print text
        #expect(try Self.ids(f, HistoryFilter(search: "overdue")) == [4])            // text and HTML body
        #expect(try Self.ids(f, HistoryFilter(search: "grace@example.com")) == [4])  // recipient, punctuation kept literal
        #expect(try Self.ids(f, HistoryFilter(search: "comp*")) == [4])              // prefix
        #expect(try Self.ids(f, HistoryFilter(search: "payment overdue")) == [4])    // every word
        #expect(try Self.ids(f, HistoryFilter(search: "payment bernoulli")).isEmpty)
        #expect(try Self.ids(f, HistoryFilter(search: "example")) == [4, 1])         // newest first
        #expect(try Self.ids(f, HistoryFilter(search: "AND OR NOT \"(")) .isEmpty)   // query syntax is literal
    }

    @Test func filtersCombineWithSearchAndLimit() throws {
        let f = try Self.seeded()
        #expect(try Self.ids(f, HistoryFilter(states: [.failed], search: "example")) == [4])
        #expect(try Self.ids(f, HistoryFilter(channels: [.mail], since: 2000, search: "example")) == [4])
        #expect(try Self.ids(f, HistoryFilter(search: "example", limit: 1)) == [4])
        #expect(try Self.ids(f, HistoryFilter(limit: 2)) == [5, 4])
        #expect(try Self.ids(f, HistoryFilter(limit: 0)).isEmpty)
        #expect(try Self.ids(f, HistoryFilter(channels: [.sms], recipient: "+1415")) == [5])
    }

    @Test func statusCountsPerChannelAndState() throws {
        let f = try Self.seeded()
        let status = try f.store.status()
        #expect(status.counts[.mail] == [.queued: 1, .failed: 1])
        #expect(status.counts[.sms] == [.queued: 1, .draft: 1])
        #expect(status.counts[.print] == [.queued: 1])
        #expect(status.oldestWaiting[.mail] == 1000)
        #expect(status.oldestWaiting[.sms] == 2000)
    }

    @Test func detailHasAttachmentsAttemptsAndPrintResult() throws {
        let f = try StoreFixture()
        let file = try f.write("a.pdf", Data("%PDF-1.4 test".utf8))
        let id = try f.mail(files: [NewAttachment(path: file, filename: "a.pdf", mimeType: "application/pdf")])
        try f.store.db.run("INSERT INTO attempt (message_id, number, started_at, finished_at, outcome, code, remote_id) VALUES (?, 1, 10, 20, 'retry', 'smtp 451', 'Q1')", [id])
        try f.store.db.run("INSERT INTO print_result (message_id, cups_job_id, job_state, pages, updated_at) VALUES (?, 7, 'completed', 2, 30)", [id])
        let detail = try #require(try f.store.detail(id: id))
        #expect(detail.attachments.map(\.filename) == ["a.pdf"])
        #expect(detail.attachments.first?.size == 13)
        #expect(detail.attachments.first?.sha256 == SHA256.hex(Data("%PDF-1.4 test".utf8)))
        #expect(detail.attempts.map(\.code) == ["smtp 451"])
        #expect(detail.printResult?.cupsJobID == 7)
        #expect(try f.store.detail(id: 999) == nil)
    }
}
