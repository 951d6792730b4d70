import Foundation
@testable import OutboxEngine
import OutboxModel
import OutboxStore
import OutboxTestSupport
import Synchronization
import Testing

/// The Dispatch worker end to end against a real database file and a fault-injecting sink.
@Suite(.serialized) struct WorkerTests {
    @Test func runOnceDeliversEverythingDueAndSummarises() async throws {
        let f = try Fixture()
        let ids = try f.queue((1...40).map { Fixture.mail($0) } + (1...10).map { Fixture.sms($0) })
        var later = Fixture.mail(99)
        later.notBefore = Timestamp.now() + 60_000
        let laterID = try f.queue([later])[0]
        let mail = FaultSink(.mail), sms = FaultSink(.sms)
        let worker = f.worker([mail, sms])
        let summary = try await offThread { try worker.runOnce() }
        #expect(summary.sent == 50 && summary.failed == 0 && summary.offline == 0 && summary.retryScheduled == 0)
        #expect(mail.callCount == 40 && sms.callCount == 10)
        for id in ids {
            #expect(try f.state(id) == .sent)
            #expect(try f.attempts(id).map(\.outcome) == [.sent])
        }
        #expect(try f.state(laterID) == .queued)
        #expect(try f.count(.sending) == 0)
    }

    @Test func transientTwiceThenSuccess() async throws {
        let f = try Fixture()
        let id = try f.queue([Fixture.mail(1)])[0]
        let sink = FaultSink(.mail) { _, previous in
            previous < 2 ? .fail(SinkError(.transient, code: "smtp 451", "try later")) : .succeed
        }
        let running = RunningWorker(f.worker([sink]))
        #expect(waitUntil { (try? f.state(id)) == .sent })
        #expect(running.stop())
        #expect(try f.summary(id).attempts == 3)
        #expect(try f.attempts(id).map(\.outcome) == [.retry, .retry, .sent])
        #expect(try f.attempts(id).map(\.number) == [1, 2, 3])
        #expect(sink.deliveries(uid: try f.summary(id).uid) == [1, 2, 3])
    }

    @Test func transientUntilAttemptsRunOut() async throws {
        let f = try Fixture()
        let policy = RetryPolicy(maxAttempts: 3, baseSeconds: 0.01, maxDelaySeconds: 0.02, deadlineHours: 1)
        let id = try f.queue([Fixture.mail(1, retry: policy)])[0]
        let sink = FaultSink(.mail) { _, _ in .fail(SinkError(.transient, code: "http 503", "unavailable")) }
        var config = Fixture.fastConfig()
        config.retry[.mail] = policy
        let running = RunningWorker(f.worker([sink], config: config))
        #expect(waitUntil { (try? f.state(id)) == .failed })
        #expect(running.stop())
        #expect(try f.attempts(id).map(\.outcome) == [.retry, .retry, .failed])
        #expect(try f.summary(id).lastError?.contains("http 503") == true)
    }

    @Test func permanentFailsAtOnce() async throws {
        let f = try Fixture()
        let id = try f.queue([Fixture.mail(1)])[0]
        let sink = FaultSink(.mail) { _, _ in .fail(SinkError(.permanent, code: "smtp 550 5.1.1", "no such user")) }
        let worker = f.worker([sink])
        let summary = try await offThread { try worker.runOnce() }
        #expect(summary.failed == 1)
        #expect(try f.state(id) == .failed)
        #expect(try f.attempts(id).map(\.outcome) == [.failed])
        #expect(try f.attempts(id).first?.errorClass == .permanent)
        #expect(try f.attempts(id).first?.code == "smtp 550 5.1.1")
    }

    @Test func hungSinkTimesOutAndTheLaneMovesOn() async throws {
        let f = try Fixture()
        let ids = try f.queue([Fixture.mail(1), Fixture.mail(2)])
        let hung = try f.summary(ids[0]).uid
        let sink = FaultSink(.mail) { delivery, _ in delivery.uid == hung ? .hang : .succeed }
        var config = Fixture.fastConfig(timeout: 3) // long enough that a loaded CI machine never times out the healthy one
        config.worker.concurrency[.mail] = 1
        defer { sink.release() }
        let worker = f.worker([sink], config: config)
        let summary = try await offThread { try worker.runOnce() }
        #expect(summary.sent == 1 && summary.retryScheduled == 1)
        #expect(try f.state(ids[1]) == .sent)
        #expect(try f.state(ids[0]) == .queued)
        let attempt = try #require(try f.attempts(ids[0]).first)
        #expect(attempt.outcome == .retry && attempt.code == "timeout" && attempt.errorClass == .transient)
    }

    @Test func uncertainIsRetriedWithTheSameUid() async throws {
        let f = try Fixture()
        let id = try f.queue([Fixture.mail(1)])[0]
        let sink = FaultSink(.mail) { _, previous in
            previous == 0 ? .fail(SinkError(.uncertain, code: "smtp timeout", "lost after DATA", remoteID: "maybe")) : .succeed
        }
        let running = RunningWorker(f.worker([sink]))
        #expect(waitUntil { (try? f.state(id)) == .sent })
        #expect(running.stop())
        let uid = try f.summary(id).uid
        #expect(sink.uids == [uid, uid])
        #expect(try f.attempts(id).map(\.outcome) == [.uncertain, .sent])
    }

    @Test func offlineSinkPausesSpendsNothingAndDrainsWhenBack() async throws {
        let f = try Fixture()
        let mailIDs = try f.queue((1...5).map { Fixture.mail($0) })
        let mail = FaultSink(.mail)
        mail.setOffline(true)
        let sms = FaultSink(.sms) { _, _ in .slow(0.01) }
        let lines = Mutex<[String]>([])
        Log.shared.redirect { line in lines.withLock { $0.append(line) } }
        defer { Log.shared.redirect(nil) }
        let running = RunningWorker(f.worker([mail, sms]))
        // While mail is down, SMS keeps flowing.
        #expect(waitUntil { mail.probes.load(ordering: .relaxed) >= 2 })
        let smsIDs = try f.queue((1...5).map { Fixture.sms($0) })
        #expect(waitUntil { smsIDs.allSatisfy { (try? f.state($0)) == .sent } })
        for id in mailIDs {
            #expect(try f.summary(id).attempts == 0)
            #expect(try f.state(id) == .queued)
        }
        #expect(mail.callCount <= 4, "the breaker stops deliveries to a dead sink")
        #expect(try f.store.sinkHealth().first { $0.channel == .mail }?.offline == true)
        // It comes back: everything drains without any command.
        mail.setOffline(false)
        #expect(waitUntil { mailIDs.allSatisfy { (try? f.state($0)) == .sent } })
        #expect(running.stop())
        for id in mailIDs { #expect(try f.summary(id).attempts == 1) }
        #expect(try f.store.sinkHealth().first { $0.channel == .mail }?.offline == false)
        let events = lines.withLock { $0 }
        #expect(events.filter { $0.contains("sink.down") }.count == 1)
        #expect(events.filter { $0.contains("sink.up") }.count == 1)
    }

    @Test func runOnceReportsAnOfflineSink() async throws {
        let f = try Fixture()
        let ids = try f.queue((1...3).map { Fixture.sms($0) })
        let sms = FaultSink(.sms)
        sms.setOffline(true)
        let worker = f.worker([sms])
        let summary = try await offThread { try worker.runOnce() }
        #expect(summary.offlineSinks == ["sms/fault"])
        #expect(summary.offline >= 1 && summary.sent == 0)
        for id in ids { #expect(try f.summary(id).state == .queued && f.summary(id).attempts == 0) }
    }

    /// Picked up by the running worker with no other nudge (how fast is measured by
    /// Benchmarks/worker-latency.sh, not asserted here).
    @Test func aNewMessageIsPickedUpWithoutANudge() async throws {
        let f = try Fixture()
        let sink = FaultSink(.mail)
        let worker = f.worker([sink])
        worker.pollInterval = .milliseconds(75)
        let running = RunningWorker(worker)
        // Let it go idle first.
        #expect(waitUntil { sink.probes.load(ordering: .relaxed) == 0 && worker.queue.sync { worker.store != nil } })
        let id = try f.queue([Fixture.mail(1)])[0]
        #expect(waitUntil(10) { (try? f.state(id)) == .sent })
        #expect(running.stop())
    }

    @Test func anIdleWorkerBringsTheSearchIndexUpToDate() async throws {
        let f = try Fixture()
        let sink = FaultSink(.mail)
        let worker = f.worker([sink])
        let running = RunningWorker(worker)
        #expect(waitUntil { worker.queue.sync { worker.store != nil } })
        // A bulk enqueue from another connection leaves indexing to later.
        var bulk = (1...3_000).map { Fixture.mail($0) }
        for index in bulk.indices { bulk[index].notBefore = Timestamp.now() + 3_600_000 }
        try f.queue(bulk)
        #expect(try f.store.searchBacklog() == 3_000)
        #expect(waitUntil(20) { (try? f.store.searchBacklog()) == 0 })
        #expect(try f.store.db.scalar("SELECT count(*) FROM message_search_docsize") == 3_000)
        #expect(running.stop())
    }

    @Test func twoWorkersDeliverEachMessageExactlyOnce() async throws {
        let f = try Fixture()
        let ids = try f.queue((1...300).map { Fixture.mail($0) })
        let sink = FaultSink(.mail)
        let a = f.worker([sink], owner: "a"), b = f.worker([sink], owner: "b")
        async let first = offThread { try a.runOnce() }
        async let second = offThread { try b.runOnce() }
        let (sa, sb) = try await (first, second)
        #expect(sa.sent + sb.sent == 300)
        let uids = sink.uids
        #expect(uids.count == 300 && Set(uids).count == 300)
        #expect(try f.count(.sent) == ids.count)
    }

    @Test func gracefulStopFinishesInFlightWork() async throws {
        let f = try Fixture()
        let id = try f.queue([Fixture.mail(1)])[0]
        let sink = FaultSink(.mail) { _, _ in .slow(0.5) }
        let running = RunningWorker(f.worker([sink]))
        #expect(waitUntil { sink.callCount == 1 })
        #expect(running.stop())
        #expect(try f.state(id) == .sent)
        #expect(try f.count(.sending) == 0)
    }

    @Test func stopAfterTheGracePeriodReleasesWhatIsLeft() async throws {
        let f = try Fixture()
        let id = try f.queue([Fixture.mail(1)])[0]
        let sink = FaultSink(.mail) { _, _ in .hang }
        defer { sink.release() }
        let running = RunningWorker(f.worker([sink], config: Fixture.fastConfig(grace: 0.2)))
        #expect(waitUntil { sink.callCount == 1 })
        #expect(running.stop())
        let s = try f.summary(id)
        #expect(s.state == .queued && s.attempts == 0)
        #expect(try f.attempts(id).map(\.outcome) == [.released])
        #expect(try f.count(.sending) == 0)
    }

    @Test func crashedWorkersLeasesAreRecovered() async throws {
        let f = try Fixture()
        let id = try f.queue([Fixture.mail(1)])[0]
        // A worker that claimed and vanished.
        _ = try f.store.claim(try f.store.claimPlan(), channel: .mail, owner: "dead", limit: 1, leaseMilliseconds: 1)
        let sink = FaultSink(.mail)
        #expect(waitUntil { Timestamp.now() > (try? f.store.detail(id: id)?.leaseUntil ?? 0) ?? 0 })
        let worker = f.worker([sink])
        let summary = try await offThread { try worker.runOnce() }
        #expect(summary.sent == 1)
        #expect(try f.attempts(id).map(\.outcome) == [.lostLease, .sent])
    }

    @Test func followUpsSettleSubmittedMessages() async throws {
        let f = try Fixture()
        let id = try f.queue([Fixture.sms(1)])[0]
        let sink = ReportingSink()
        let worker = f.worker([sink])
        worker.followUpInterval = 50
        let running = RunningWorker(worker)
        #expect(waitUntil { (try? f.state(id)) == .sent })
        #expect(running.stop())
        #expect(try f.attempts(id).map(\.outcome) == [.submitted, .delivered])
    }

    /// Kannel can call the dlr-url before its HTTP answer reaches us: the report arrives while
    /// the message is still `sending`. It must be kept and applied once the submission is committed.
    @Test func aReportThatArrivesBeforeTheSubmissionIsCommittedStillSettles() async throws {
        let f = try Fixture()
        let id = try f.queue([Fixture.sms(1)])[0]
        let sink = EarlyReportingSink()
        let worker = f.worker([sink])
        worker.followUpInterval = 3_600_000
        let running = RunningWorker(worker)
        #expect(waitUntil { (try? f.state(id)) == .sent })
        #expect(running.stop())
        #expect(try f.attempts(id).map(\.outcome) == [.submitted, .delivered])
    }

    @Test func attachmentsStreamFromTheStore() throws {
        let f = try Fixture()
        let file = f.directory.file("big.bin")
        let bytes = (0..<300_000).map { UInt8($0 % 251) }
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        var message = Fixture.mail(1)
        message.files = [NewAttachment(path: file, filename: "big.bin", mimeType: "application/octet-stream")]
        let id = try f.queue([message])[0]
        let stream = try StoreAttachmentSource(databasePath: f.path).open(messageID: id, position: 0)
        defer { stream.close() }
        #expect(stream.size == bytes.count)
        var read: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try stream.read(into: $0) }
            if n == 0 { break }
            read += buffer[0..<n]
        }
        #expect(read == bytes)
        #expect(throws: (any Error).self) { try StoreAttachmentSource(databasePath: f.path).open(messageID: id, position: 7) }
    }
}

/// A sink that accepts SMS as `submitted` and reports delivery on the first follow-up.
final class ReportingSink: Sink {
    let channel = Channel.sms
    let name = "reporting"
    var destinationDescription: String { "test" }
    func deliver(_ delivery: Delivery) throws(SinkError) -> DeliveryReceipt {
        DeliveryReceipt(outcome: .submitted, remoteID: "gw-\(delivery.messageID)")
    }
    func followUp(_ message: SubmittedMessage) -> FollowUp? {
        FollowUp(outcome: .delivered, code: "dlr 1", detail: "delivered to handset")
    }
}

/// Pushes the delivery report from inside `deliver`, before the receipt is returned.
final class EarlyReportingSink: Sink, @unchecked Sendable {
    let channel = Channel.sms
    let name = "early-reporting"
    var destinationDescription: String { "test" }
    private let report = Mutex<(@Sendable (DeliveryReport) -> Void)?>(nil)

    func startReceivingReports(_ report: @escaping @Sendable (DeliveryReport) -> Void) throws(SinkError) {
        self.report.withLock { $0 = report }
    }

    func deliver(_ delivery: Delivery) throws(SinkError) -> DeliveryReceipt {
        report.withLock { $0 }?(DeliveryReport(uid: delivery.uid, outcome: .delivered, code: "dlr 1"))
        // Give the worker's queue time to see the report first.
        usleep(50_000)
        return DeliveryReceipt(outcome: .submitted, remoteID: "gw-\(delivery.messageID)")
    }
}
