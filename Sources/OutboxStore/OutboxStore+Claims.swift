import FoundationEssentials
import OutboxModel
import OutboxSQLite

/// How `claim` finds due messages, chosen once per store from the indexes the file has.
///
/// Ordering by `priority DESC, id` needs an index on `(channel, priority DESC, id) WHERE state =
/// 'queued'` to stop after `LIMIT` rows; without it (schema version 1) SQLite reads every due
/// row of the channel and sorts them, which is fine for ordinary queues and slower for a
/// backlog of 100,000. The plan uses that index when a later migration adds it as `message_claim`.
public struct ClaimPlan: Sendable {
    let sql: String
    public let usesClaimIndex: Bool
}

extension OutboxStore {
    // MARK: - Claiming

    /// The claim plan for this database file.
    public func claimPlan() throws -> ClaimPlan {
        // `message_claim` gives the claim order without a sort; `+next_attempt_at` keeps the
        // planner off `message_due` (a range scan plus a sort).
        let sql = """
            UPDATE message SET state = 'sending', lease_owner = ?, lease_until = ?, claim_token = claim_token + 1, updated_at = ?
            WHERE id IN (SELECT id FROM message INDEXED BY message_claim
                         WHERE state = 'queued' AND channel = ? AND +next_attempt_at <= ?
                         ORDER BY priority DESC, id LIMIT ?)
            RETURNING id, uid, channel, destination, priority, attempts, max_attempts, deadline, claim_token, lost_leases, created_at
            """
        return ClaimPlan(sql: sql, usesClaimIndex: true)
    }

    /// Claims up to `limit` due messages of `channel` for `owner`: one `UPDATE … RETURNING` in
    /// `BEGIN IMMEDIATE`, so two workers never claim the same message. Due means queued with
    /// `next_attempt_at <= dueBy`. Messages whose deadline has passed are failed here instead of
    /// being handed out (they can sit queued for long while a sink is offline).
    /// Returned in priority, then id, order, with their content loaded.
    public func claim(_ plan: ClaimPlan, channel: Channel, owner: String, limit: Int, leaseMilliseconds: Milliseconds,
                      dueBy: Milliseconds? = nil, now: Milliseconds = Timestamp.now()) throws -> [ClaimedMessage] {
        guard limit > 0 else { return [] }
        let leaseUntil = now + leaseMilliseconds
        return try write {
            var claimed = try db.rows(plan.sql, [owner, leaseUntil, now, channel.rawValue, dueBy ?? now, limit]) { row in
                ClaimedMessage(id: row.int64(0), uid: row.string(1), channel: Channel(rawValue: row.string(2)) ?? channel,
                               destination: row.optionalString(3), priority: row.int(4), attempts: row.int(5),
                               maxAttempts: row.int(6), deadline: row.isNull(7) ? nil : row.int64(7),
                               claimToken: row.int64(8), lostLeases: row.int(9), createdAt: row.int64(10),
                               leaseUntil: leaseUntil, content: .sms(SMSContent(sender: nil, recipient: "", body: "")),
                               attachments: [])
            }
            claimed.sort { ($0.priority, -$0.id) > ($1.priority, -$1.id) }
            var ready: [ClaimedMessage] = []
            for var message in claimed {
                if let deadline = message.deadline, deadline <= now {
                    try finish(message.id, token: message.claimToken, state: .failed, attemptsDelta: 0,
                               error: "deadline passed before it could be delivered", now: now)
                    try insertAttempt(message.id, number: message.attemptNumber, startedAt: now, finishedAt: now,
                                      outcome: .failed, errorClass: nil, code: "deadline",
                                      detail: "gave up: the deadline passed before it could be delivered",
                                      remoteID: nil, worker: owner)
                    continue
                }
                message.content = try loadContent(id: message.id, channel: message.channel)
                message.attachments = try attachments(id: message.id)
                ready.append(message)
            }
            return ready
        }
    }

    // MARK: - Completing

    /// Records the outcomes of finished deliveries, each fenced on its message id, claim token
    /// and `state = 'sending'`, together with its attempt row. Several completions share one
    /// transaction (group commit) but each is all-or-nothing with its own attempt row. A
    /// completion whose token no longer matches writes nothing and comes back `.stale`.
    public func complete(_ completions: [DeliveryCompletion], policies: [Channel: RetryPolicy],
                         maxLostLeases: Int = 3, now: Milliseconds = Timestamp.now(),
                         random: (ClosedRange<Double>) -> Double = { Double.random(in: $0) }) throws -> [CompletionEffect] {
        // Kept files are hashed before the write lock is taken.
        var hashed: [Int: HashedFile] = [:]
        for (index, completion) in completions.enumerated() {
            if let keep = completion.keep { hashed[index] = try Self.hashFile(keep.path) }
        }
        return try write {
            var effects: [CompletionEffect] = []
            effects.reserveCapacity(completions.count)
            for (index, completion) in completions.enumerated() {
                effects.append(try completeOne(completion, kept: hashed[index], policies: policies, now: now, random: random))
            }
            return effects
        }
    }

    private func completeOne(_ c: DeliveryCompletion, kept: HashedFile?, policies: [Channel: RetryPolicy],
                             now: Milliseconds, random: (ClosedRange<Double>) -> Double) throws -> CompletionEffect {
        guard let row = try db.first("""
            SELECT channel, attempts, max_attempts, deadline FROM message WHERE id = ? AND claim_token = ? AND state = 'sending'
            """, [c.messageID, c.claimToken], { ($0.string(0), $0.int(1), $0.int(2), $0.isNull(3) ? nil : $0.int64(3)) })
        else { return .stale }
        let channel = Channel(rawValue: row.0) ?? .mail
        let (attempts, maxAttempts, deadline) = (row.1, row.2, row.3)
        let number = attempts + 1
        let duration = Int(max(0, c.finishedAt - c.startedAt))
        func attempt(_ outcome: AttemptOutcome, _ errorClass: ErrorClass?, detail: String? = nil) throws {
            try insertAttempt(c.messageID, number: number, startedAt: c.startedAt, finishedAt: c.finishedAt, outcome: outcome,
                              errorClass: errorClass, code: c.code, detail: detail ?? c.detail, remoteID: c.remoteID,
                              worker: c.worker, durationMilliseconds: duration)
        }
        let effect: CompletionEffect
        switch c.result {
        case .sent, .submitted:
            let sent = c.result == .sent
            try db.run("""
                UPDATE message SET state = ?, attempts = attempts + 1, remote_id = coalesce(?, remote_id), last_error = NULL,
                       lease_owner = NULL, lease_until = NULL, next_attempt_at = NULL, finished_at = ?, updated_at = ?
                WHERE id = ? AND claim_token = ? AND state = 'sending'
                """, [sent ? "sent" : "submitted", c.remoteID, sent ? now : nil, now, c.messageID, c.claimToken])
            try attempt(sent ? .sent : .submitted, nil)
            effect = sent ? .sent : .submitted
        case .permanent:
            try finish(c.messageID, token: c.claimToken, state: .failed, attemptsDelta: 1, error: Self.errorText(c), now: now)
            try attempt(.failed, .permanent)
            effect = .failed
        case .transient(let retryAfter), .uncertain(let retryAfter):
            let uncertain = if case .uncertain = c.result { true } else { false }
            let errorClass: ErrorClass = uncertain ? .uncertain : .transient
            let policy = policies[channel] ?? .defaults(for: channel)
            // At least 1 ms: a `--once` run claims only what was due when it started.
            let next = now + max(1, policy.delay(afterAttempt: number, retryAfterSeconds: retryAfter, random: random))
            if number >= maxAttempts || (deadline.map { next > $0 } ?? false) {
                let why = number >= maxAttempts ? "gave up after \(number) of \(maxAttempts) attempts"
                                                : "gave up: the next attempt would fall after the deadline"
                try finish(c.messageID, token: c.claimToken, state: .failed, attemptsDelta: 1,
                           error: Self.errorText(c) + " (\(why))", now: now)
                try attempt(uncertain ? .uncertain : .failed, errorClass, detail: [c.detail, why].compactMap { $0 }.joined(separator: "; "))
                effect = .failed
            } else {
                try db.run("""
                    UPDATE message SET state = 'queued', attempts = attempts + 1, next_attempt_at = ?, last_error = ?,
                           remote_id = coalesce(?, remote_id), lease_owner = NULL, lease_until = NULL, updated_at = ?
                    WHERE id = ? AND claim_token = ? AND state = 'sending'
                    """, [next, Self.errorText(c), c.remoteID, now, c.messageID, c.claimToken])
                try attempt(uncertain ? .uncertain : .retry, errorClass)
                effect = .retryScheduled(nextAttemptAt: next)
            }
        case .offline, .released:
            let offline = c.result == .offline
            try db.run("""
                UPDATE message SET state = 'queued', last_error = coalesce(?, last_error), lease_owner = NULL, lease_until = NULL,
                       next_attempt_at = min(coalesce(next_attempt_at, ?), ?), updated_at = ?
                WHERE id = ? AND claim_token = ? AND state = 'sending'
                """, [offline ? Self.errorText(c) : nil, now, now, now, c.messageID, c.claimToken])
            try attempt(offline ? .offline : .released, offline ? .offline : nil)
            effect = .requeued
        }
        if let printResult = c.printResult { try upsertPrintResult(c.messageID, printResult, now: now) }
        if let keep = c.keep, let kept { try keepFile(c.messageID, keep, hashed: kept) }
        return effect
    }

    static func errorText(_ c: DeliveryCompletion) -> String {
        [c.code, c.detail].compactMap { $0 }.joined(separator: ": ")
    }

    /// Moves a leased message to a final or waiting state, fenced on its token.
    private func finish(_ id: Int64, token: Int64, state: MessageState, attemptsDelta: Int, error: String?, now: Milliseconds) throws {
        try db.run("""
            UPDATE message SET state = ?, attempts = attempts + ?, last_error = coalesce(?, last_error), lease_owner = NULL,
                   lease_until = NULL, next_attempt_at = NULL, finished_at = ?, updated_at = ?
            WHERE id = ? AND claim_token = ? AND state = 'sending'
            """, [state.rawValue, attemptsDelta, error, state.isFinal ? now : nil, now, id, token])
    }

    func insertAttempt(_ id: Int64, number: Int, startedAt: Milliseconds, finishedAt: Milliseconds?, outcome: AttemptOutcome,
                       errorClass: ErrorClass?, code: String?, detail: String?, remoteID: String?, worker: String?,
                       durationMilliseconds: Int? = nil) throws {
        try db.run("""
            INSERT INTO attempt (message_id, number, started_at, finished_at, outcome, error_class, code, detail, remote_id, worker, duration_ms)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [id, number, startedAt, finishedAt, outcome.rawValue, errorClass?.rawValue, code, detail, remoteID, worker,
                  durationMilliseconds])
    }

    /// Gives back claimed messages whose delivery never started (a worker's prefetched backlog,
    /// at shutdown or when their sink went offline): back to `queued`, no attempt row, fenced.
    public func unclaim(_ held: [(id: Int64, claimToken: Int64)], now: Milliseconds = Timestamp.now()) throws {
        guard !held.isEmpty else { return }
        try write {
            for lease in held {
                try db.run("""
                    UPDATE message SET state = 'queued', lease_owner = NULL, lease_until = NULL, updated_at = ?
                    WHERE id = ? AND claim_token = ? AND state = 'sending'
                    """, [now, lease.id, lease.claimToken])
            }
        }
    }

    // MARK: - Leases

    /// Extends the leases of deliveries still running, so a long delivery is not taken for a
    /// crashed one. Returns how many leases were still held (a lost one is not extended).
    @discardableResult
    public func heartbeat(_ held: [(id: Int64, claimToken: Int64)], owner: String, leaseMilliseconds: Milliseconds,
                          now: Milliseconds = Timestamp.now()) throws -> Int {
        guard !held.isEmpty else { return 0 }
        return try write {
            var extended = 0
            for lease in held {
                try db.run("""
                    UPDATE message SET lease_until = ? WHERE id = ? AND claim_token = ? AND state = 'sending' AND lease_owner = ?
                    """, [now + leaseMilliseconds, lease.id, lease.claimToken, owner])
                extended += db.changes
            }
            return extended
        }
    }

    /// What lease recovery did to one message.
    public struct RecoveredLease: Sendable, Equatable {
        public var id: Int64
        public var channel: Channel
        public var previousOwner: String?
        /// True when it was failed for losing too many leases.
        public var failed: Bool
    }

    /// Puts messages whose lease expired (their worker crashed or was killed) back to `queued`
    /// with a `lost_lease` attempt row, or `failed` once they have lost `maxLostLeases` leases,
    /// so a message that kills its worker cannot loop forever. Bumping the claim token fences
    /// off the vanished worker should it come back.
    public func recoverExpiredLeases(maxLostLeases: Int, recoveredBy worker: String, now: Milliseconds = Timestamp.now()) throws -> [RecoveredLease] {
        // A cheap read first: most calls find nothing and should not take the write lock.
        guard try db.scalar("SELECT 1 FROM message WHERE state = 'sending' AND lease_until < ? LIMIT 1", [now]) != nil else { return [] }
        return try write {
            let expired = try db.rows("""
                SELECT id, channel, lease_owner, lost_leases, attempts, claim_token FROM message
                WHERE state = 'sending' AND lease_until < ? ORDER BY id
                """, [now]) { ($0.int64(0), $0.string(1), $0.optionalString(2), $0.int(3), $0.int(4), $0.int64(5)) }
            var recovered: [RecoveredLease] = []
            for (id, channel, owner, lost, attempts, token) in expired {
                let failed = lost + 1 >= maxLostLeases
                let detail = "the lease held by \(owner ?? "a worker") expired (lost lease \(lost + 1) of \(maxLostLeases))"
                    + (failed ? "; gave up so a message that crashes its worker cannot loop" : "")
                try db.run("""
                    UPDATE message SET state = ?, lost_leases = lost_leases + 1, claim_token = claim_token + 1,
                           lease_owner = NULL, lease_until = NULL, next_attempt_at = ?, finished_at = ?, last_error = ?, updated_at = ?
                    WHERE id = ? AND claim_token = ? AND state = 'sending'
                    """, [failed ? "failed" : "queued", failed ? nil : now, failed ? now : nil, detail, now, id, token])
                try insertAttempt(id, number: attempts + 1, startedAt: now, finishedAt: now, outcome: .lostLease,
                                  errorClass: nil, code: "lease expired", detail: detail, remoteID: nil, worker: worker)
                recovered.append(RecoveredLease(id: id, channel: Channel(rawValue: channel) ?? .mail, previousOwner: owner, failed: failed))
            }
            return recovered
        }
    }

    // MARK: - Wake-up

    /// The earliest `next_attempt_at` of a queued message in `channels` (one index lookup each).
    public func nextDue(channels: [Channel]) throws -> Milliseconds? {
        var earliest: Milliseconds?
        for channel in channels {
            if let t = try db.scalar("SELECT min(next_attempt_at) FROM message WHERE state = 'queued' AND channel = ?", [channel.rawValue]) {
                earliest = min(earliest ?? Milliseconds(t), Milliseconds(t))
            }
        }
        return earliest
    }
}
