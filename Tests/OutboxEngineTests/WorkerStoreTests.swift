import Foundation
import OutboxModel
import OutboxStore
import OutboxTestSupport
import Testing

/// The store side of the worker: claims, fenced completions, leases, reports.
@Suite struct WorkerStoreTests {
    let owner = "w1"

    func claimOne(_ f: Fixture, now: Milliseconds = Timestamp.now(), lease: Milliseconds = 60_000) throws -> ClaimedMessage {
        let claimed = try f.store.claim(try f.store.claimPlan(), channel: .mail, owner: owner, limit: 1, leaseMilliseconds: lease, now: now)
        return try #require(claimed.first)
    }

    func completion(_ m: ClaimedMessage, _ result: DeliveryCompletion.Result, code: String? = nil, at now: Milliseconds = Timestamp.now()) -> DeliveryCompletion {
        DeliveryCompletion(messageID: m.id, claimToken: m.claimToken, result: result, startedAt: now, finishedAt: now,
                           code: code, detail: "detail", remoteID: nil, worker: owner)
    }

    @Test func claimMovesToSendingWithLeaseAndToken() throws {
        let f = try Fixture()
        let ids = try f.queue([Fixture.mail(1), Fixture.mail(2), Fixture.mail(3, priority: 5)])
        let now = Timestamp.now()
        let claimed = try f.store.claim(try f.store.claimPlan(), channel: .mail, owner: owner, limit: 2, leaseMilliseconds: 1000, now: now)
        // Priority first, then age.
        #expect(claimed.map(\.id) == [ids[2], ids[0]])
        #expect(claimed.allSatisfy { $0.claimToken == 1 && $0.attemptNumber == 1 })
        let detail = try #require(try f.store.detail(id: ids[2]))
        #expect(detail.summary.state == .sending)
        #expect(detail.leaseOwner == owner)
        #expect(detail.leaseUntil == now + 1000)
        if case .mail(let mail) = claimed[0].content { #expect(mail.subject == "test 3") } else { Issue.record("wrong content") }
        // Nothing else due in sms; the remaining mail is claimable once.
        #expect(try f.store.claim(try f.store.claimPlan(), channel: .sms, owner: owner, limit: 5, leaseMilliseconds: 1000).isEmpty)
        #expect(try f.store.claim(try f.store.claimPlan(), channel: .mail, owner: owner, limit: 5, leaseMilliseconds: 1000).map(\.id) == [ids[1]])
    }

    @Test func notDueIsNotClaimed() throws {
        let f = try Fixture()
        var later = Fixture.mail(1)
        later.notBefore = Timestamp.now() + 60_000
        try f.queue([later])
        #expect(try f.store.claim(try f.store.claimPlan(), channel: .mail, owner: owner, limit: 5, leaseMilliseconds: 1000).isEmpty)
        #expect(try f.store.nextDue(channels: [.mail]) == later.notBefore)
    }

    @Test func sentWritesStateAndAttemptTogether() throws {
        let f = try Fixture()
        let id = try f.queue([Fixture.mail(1)])[0]
        let m = try claimOne(f)
        var c = completion(m, .sent, code: "smtp 250")
        c.remoteID = "Q123"
        #expect(try f.store.complete([c], policies: [:]) == [.sent])
        let s = try f.summary(id)
        #expect(s.state == .sent && s.attempts == 1 && s.remoteID == "Q123" && s.finishedAt != nil)
        let attempts = try f.attempts(id)
        #expect(attempts.map(\.outcome) == [.sent])
        #expect(attempts[0].remoteID == "Q123" && attempts[0].code == "smtp 250" && attempts[0].worker == owner)
    }

    @Test func staleCompletionIsANoOp() throws {
        let f = try Fixture()
        let id = try f.queue([Fixture.mail(1)])[0]
        let now = Timestamp.now()
        let first = try claimOne(f, now: now, lease: 10)
        // The first worker stalls; its lease expires and a second worker takes the message over.
        let recovered = try f.store.recoverExpiredLeases(maxLostLeases: 3, recoveredBy: "w2", now: now + 100)
        #expect(recovered.map(\.id) == [id])
        let second = try #require(try f.store.claim(try f.store.claimPlan(), channel: .mail, owner: "w2", limit: 1,
                                                    leaseMilliseconds: 60_000, now: now + 200).first)
        #expect(second.claimToken > first.claimToken)
        #expect(try f.store.complete([completion(second, .permanent)], policies: [:]) == [.failed])
        // The stale worker comes back and reports success: nothing changes.
        #expect(try f.store.complete([completion(first, .sent)], policies: [:]) == [.stale])
        #expect(try f.state(id) == .failed)
        #expect(try f.attempts(id).map(\.outcome) == [.lostLease, .failed])
        // A heartbeat with the stale token extends nothing.
        #expect(try f.store.heartbeat([(id: id, claimToken: first.claimToken)], owner: owner, leaseMilliseconds: 1000) == 0)
    }

    @Test func leaseRecoveryRequeuesThenFailsAfterMaxLostLeases() throws {
        let f = try Fixture()
        let id = try f.queue([Fixture.mail(1)])[0]
        var now = Timestamp.now()
        for round in 1...2 {
            _ = try claimOne(f, now: now, lease: 10)
            now += 100
            let recovered = try f.store.recoverExpiredLeases(maxLostLeases: 2, recoveredBy: "w2", now: now)
            #expect(recovered.count == 1)
            #expect(recovered[0].failed == (round == 2))
        }
        let s = try f.summary(id)
        #expect(s.state == .failed)
        #expect(s.attempts == 0)
        #expect(try f.attempts(id).map(\.outcome) == [.lostLease, .lostLease])
        #expect(try f.count(.sending) == 0)
    }

    @Test func heartbeatKeepsALongDeliveryFromBeingRecovered() throws {
        let f = try Fixture()
        let id = try f.queue([Fixture.mail(1)])[0]
        let now = Timestamp.now()
        let m = try claimOne(f, now: now, lease: 100)
        #expect(try f.store.heartbeat([(id: id, claimToken: m.claimToken)], owner: owner, leaseMilliseconds: 10_000, now: now + 50) == 1)
        #expect(try f.store.recoverExpiredLeases(maxLostLeases: 3, recoveredBy: "w2", now: now + 1000).isEmpty)
        #expect(try f.state(id) == .sending)
    }

    @Test func offlineAndReleasedSpendNoAttempt() throws {
        let f = try Fixture()
        let ids = try f.queue([Fixture.mail(1), Fixture.mail(2)])
        let a = try claimOne(f), b = try claimOne(f)
        #expect(try f.store.complete([completion(a, .offline, code: "curl 7"), completion(b, .released)], policies: [:]) == [.requeued, .requeued])
        for id in ids {
            let s = try f.summary(id)
            #expect(s.state == .queued && s.attempts == 0)
            #expect(try #require(s.nextAttemptAt) <= Timestamp.now())
        }
        #expect(try f.attempts(ids[0]).map(\.outcome) == [.offline])
        #expect(try f.attempts(ids[0]).first?.errorClass == .offline)
        #expect(try f.attempts(ids[1]).map(\.outcome) == [.released])
    }

    @Test func transientBackoffHasFullJitterWithinTheCap() throws {
        let f = try Fixture()
        let policy = RetryPolicy(maxAttempts: 10, baseSeconds: 60, maxDelaySeconds: 3600, deadlineHours: 120)
        let id = try f.queue([Fixture.mail(1, retry: policy)])[0]
        var spans: [(low: Double, high: Double)] = []
        for attempt in 1...3 {
            let now = Timestamp.now()
            // Claim as if the retry were already due.
            let m = try #require(try f.store.claim(try f.store.claimPlan(), channel: .mail, owner: owner, limit: 1,
                                                   leaseMilliseconds: 60_000, dueBy: now + 10_000_000, now: now).first)
            #expect(m.attemptNumber == attempt)
            let effects = try f.store.complete([completion(m, .transient(retryAfterSeconds: nil), at: now)],
                                               policies: [.mail: policy], now: now) { range in
                spans.append((range.lowerBound, range.upperBound))
                return range.upperBound
            }
            let ceiling = 60.0 * Double(1 << (attempt - 1))
            #expect(effects == [.retryScheduled(nextAttemptAt: now + Milliseconds(ceiling * 1000))])
        }
        #expect(spans.map(\.low) == [0, 0, 0])
        #expect(spans.map(\.high) == [60, 120, 240])
        #expect(try f.summary(id).attempts == 3)
        #expect(try f.attempts(id).map(\.outcome) == [.retry, .retry, .retry])
        // Real randomness stays within [0, ceiling].
        for _ in 0..<200 {
            let d = policy.delay(afterAttempt: 4)
            #expect(d >= 0 && d <= 480_000)
        }
    }

    @Test func retryAfterIsHonoured() throws {
        let f = try Fixture()
        let policy = RetryPolicy(maxAttempts: 10, baseSeconds: 1, maxDelaySeconds: 2, deadlineHours: 1)
        try f.queue([Fixture.mail(1, retry: policy)])
        let m = try claimOne(f)
        let now = Timestamp.now()
        let effects = try f.store.complete([completion(m, .transient(retryAfterSeconds: 120))], policies: [.mail: policy], now: now)
        guard case .retryScheduled(let next) = effects[0] else { Issue.record("expected a retry"); return }
        #expect(next >= now + 120_000)
    }

    @Test func attemptsAndDeadlineExhaustionFail() throws {
        let f = try Fixture()
        let policy = RetryPolicy(maxAttempts: 2, baseSeconds: 0, maxDelaySeconds: 0, deadlineHours: 1)
        let id = try f.queue([Fixture.mail(1, retry: policy)])[0]
        let plan = try f.store.claimPlan()
        for _ in 0..<2 {
            let m = try #require(try f.store.claim(plan, channel: .mail, owner: owner, limit: 1, leaseMilliseconds: 60_000,
                                                   dueBy: Timestamp.now() + 1000).first)
            _ = try f.store.complete([completion(m, .transient(retryAfterSeconds: nil))], policies: [.mail: policy])
        }
        #expect(try f.summary(id).state == .failed)
        #expect(try f.summary(id).attempts == 2)
        #expect(try f.attempts(id).map(\.outcome) == [.retry, .failed])

        // A Retry-After beyond the deadline fails at once.
        let late = try f.queue([Fixture.mail(2, retry: policy)])[0]
        let m = try claimOne(f)
        #expect(try f.store.complete([completion(m, .transient(retryAfterSeconds: 7200))], policies: [.mail: policy]) == [.failed])
        #expect(try f.state(late) == .failed)

        // A message whose deadline passed while queued is failed at claim, never delivered.
        let expired = try f.queue([Fixture.mail(3, retry: policy)])[0]
        #expect(try f.store.claim(plan, channel: .mail, owner: owner, limit: 5, leaseMilliseconds: 1000,
                                  now: Timestamp.now() + 2 * 3_600_000).isEmpty)
        #expect(try f.state(expired) == .failed)
        #expect(try f.attempts(expired).first?.code == "deadline")
    }

    @Test func uncertainKeepsTheUidAndIsRecorded() throws {
        let f = try Fixture()
        let id = try f.queue([Fixture.mail(1)])[0]
        let uid = try f.summary(id).uid
        let m = try claimOne(f)
        var c = completion(m, .uncertain(retryAfterSeconds: nil), code: "smtp timeout after DATA")
        c.remoteID = "maybe-1"
        let effects = try f.store.complete([c], policies: Fixture.fastConfig().retry)
        guard case .retryScheduled = effects[0] else { Issue.record("expected a retry"); return }
        let s = try f.summary(id)
        #expect(s.uid == uid && s.state == .queued && s.attempts == 1)
        #expect(try f.attempts(id).map(\.outcome) == [.uncertain])
        #expect(try f.attempts(id).first?.errorClass == .uncertain)
    }

    @Test func reportsMoveSubmittedOnlyForward() throws {
        let f = try Fixture()
        let ids = try f.queue([Fixture.sms(1), Fixture.sms(2)])
        let plan = try f.store.claimPlan()
        for m in try f.store.claim(plan, channel: .sms, owner: owner, limit: 2, leaseMilliseconds: 60_000) {
            _ = try f.store.complete([completion(m, .submitted)], policies: [:])
        }
        #expect(try f.store.submitted(channels: [.sms]).map(\.id) == ids)
        let uid0 = try f.summary(ids[0]).uid
        #expect(try f.store.applyReport(uid: uid0, outcome: .pending, code: nil, detail: nil, worker: owner) == .updated)
        #expect(try f.store.applyReport(uid: uid0, outcome: .delivered, code: "dlr 1", detail: nil, worker: owner) == .delivered)
        #expect(try f.state(ids[0]) == .sent)
        // A late "undelivered" never moves a sent message back.
        #expect(try f.store.applyReport(uid: uid0, outcome: .undelivered, code: "dlr 2", detail: nil, worker: owner) == .ignored)
        #expect(try f.state(ids[0]) == .sent)
        #expect(try f.store.applyReport(id: ids[1], outcome: .undelivered, code: "dlr 16", detail: "rejected", worker: owner) == .undelivered)
        #expect(try f.state(ids[1]) == .failed)
        #expect(try f.attempts(ids[1]).map(\.outcome) == [.submitted, .undelivered])
        #expect(try f.store.applyReport(uid: "no-such-uid", outcome: .delivered, code: nil, detail: nil, worker: owner) == .unknown)
    }

    @Test func sinkStateKeepsSinceWhileUnchanged() throws {
        let f = try Fixture()
        try f.store.setSinkState(channel: .mail, sink: "smtp", offline: true, lastError: "refused", nextProbeAt: 5, now: 100)
        try f.store.setSinkState(channel: .mail, sink: "smtp", offline: true, lastError: "still refused", nextProbeAt: 9, now: 200)
        var health = try f.store.sinkHealth()
        #expect(health == [SinkHealth(channel: .mail, sink: "smtp", offline: true, since: 100, lastError: "still refused", nextProbeAt: 9)])
        try f.store.setSinkState(channel: .mail, sink: "smtp", offline: false, lastError: nil, nextProbeAt: nil, now: 300)
        health = try f.store.sinkHealth()
        #expect(health == [SinkHealth(channel: .mail, sink: "smtp", offline: false, since: 300, lastError: nil, nextProbeAt: nil)])
    }

    @Test func keptFileAndPrintResultAreStored() throws {
        let f = try Fixture()
        let id = try f.queue([Fixture.mail(1)])[0]
        let pdf = f.directory.file("rendered.pdf")
        try Data("%PDF-1.4 test".utf8).write(to: URL(fileURLWithPath: pdf))
        let m = try claimOne(f)
        var c = completion(m, .sent)
        c.printResult = PrintResult(pages: 2, pdfPath: pdf, pdfSHA256: "abc")
        c.keep = NewAttachment(path: pdf, role: .rendered, filename: "job.pdf", mimeType: "application/pdf")
        #expect(try f.store.complete([c], policies: [:]) == [.sent])
        let files = try f.store.attachments(id: id)
        #expect(files.map(\.role) == [.rendered])
        #expect(files.first?.size == 13)
        let result = try #require(try f.store.printResult(id: id))
        #expect(result.pages == 2 && result.pdfPath == pdf)
    }
}
