import Dispatch
import FoundationEssentials
import OutboxModel
import OutboxStore

extension Worker {
    // MARK: - Claiming

    /// Claims as much as each open lane has room for and starts delivering it. Runs on `queue`
    /// whenever something may have changed: a delivery settled, another process committed, a
    /// retry fell due, a sink came back.
    func pump() {
        guard !finished, !stopping, let store, let plan else { return }
        let now = Timestamp.now()
        let dueBy: Milliseconds? = if case .once(let start) = mode { start } else { nil }
        for channel in lanes.keys.sorted() {
            guard let lane = lanes[channel] else { continue }
            startFromBacklog(lane)
            guard !lane.drained, lane.backlog.isEmpty, lane.freeSlots > 0 else { continue }
            let batch = lane.claimBatch
            let claimed: [ClaimedMessage]
            do {
                claimed = try store.claim(plan, channel: channel, owner: owner, limit: batch,
                                          leaseMilliseconds: leaseMilliseconds, dueBy: dueBy, now: now)
            } catch {
                storeFailed(error, doing: "claim")
                return
            }
            if claimed.count < batch, case .once = mode { lane.drained = true }
            lane.backlog = claimed
            startFromBacklog(lane)
        }
        if onceComplete { finishRun(); return }
        if case .continuous = mode {
            nextDueAt = try? store.nextDue(channels: lanes.values.filter { !$0.breaker.isOpen }.map(\.channel))
        }
    }

    /// Starts claimed messages while the lane has free slots.
    private func startFromBacklog(_ lane: ChannelLane) {
        guard !stopping else { return }
        var started = 0
        while lane.freeSlots > 0, started < lane.backlog.count {
            startDelivery(lane.backlog[started], lane: lane)
            started += 1
        }
        if started > 0 { lane.backlog.removeFirst(started) }
    }

    /// Gives back what was claimed but not started (shutdown, or the sink went offline).
    func releaseBacklog(_ lane: ChannelLane) {
        guard !lane.backlog.isEmpty else { return }
        let held = lane.backlog.map { (id: $0.id, claimToken: $0.claimToken) }
        lane.backlog.removeAll()
        do { try store?.unclaim(held) } catch {
            Log.shared.error("store.error", ["while": "unclaim", "error": "\(error)"])
        }
    }

    var leaseMilliseconds: Milliseconds { Milliseconds(config.worker.leaseSeconds * 1000) }

    private func startDelivery(_ message: ClaimedMessage, lane: ChannelLane) {
        let started = Timestamp.now()
        let delivery = Delivery(messageID: message.id, uid: message.uid, destination: message.destination,
                                attemptNumber: message.attemptNumber, content: message.content,
                                attachments: message.attachments, files: StoreAttachmentSource(databasePath: databasePath),
                                createdAt: message.createdAt)
        let channel = lane.channel, id = message.id, token = message.claimToken
        lane.inFlight[id] = ChannelLane.InFlight(claimToken: token, attemptNumber: message.attemptNumber,
                                                 startedAt: started)
        if Worker.verbose {
            Log.shared.info("deliver", id: id, channel: channel, ["attempt": "\(message.attemptNumber)", "sink": lane.sink.name])
        }
        let sink = lane.sink
        let queue = self.queue
        lane.deliveries.async { [self] in
            let result: Result<DeliveryReceipt, SinkError>
            do throws(SinkError) { result = .success(try sink.deliver(delivery)) } catch { result = .failure(error) }
            queue.async { self.delivered(channel: channel, id: id, token: token, result: result) }
        }
    }

    // MARK: - Settling

    /// A sink call returned. Ignored when the delivery was already settled (timed out, or
    /// released at shutdown): the fence in the store would refuse it anyway.
    private func delivered(channel: Channel, id: Int64, token: Int64, result: Result<DeliveryReceipt, SinkError>) {
        guard let lane = lanes[channel] else { return }
        guard let flight = lane.inFlight[id], flight.claimToken == token else {
            lane.abandoned = max(0, lane.abandoned - 1)
            Log.shared.info("late-result", id: id, channel: channel, ["detail": "the sink answered after the delivery was settled; ignored"])
            return
        }
        lane.inFlight[id] = nil
        settle(completion(id: id, flight: flight, result: result), channel: channel)
    }

    /// No answer within `delivery_timeout_seconds`: treated as transient so the lane moves on.
    /// If the sink does answer later, its result is dropped (and a late store write would be
    /// fenced off by the claim token).
    /// Checked on the worker's tick rather than with a timer per delivery: a cancelled
    /// `asyncAfter` item stays queued until its deadline, and 100,000 deliveries' worth of
    /// five-minute timers is 100 MB.
    func expireTimedOutDeliveries(now: Milliseconds) {
        let limit = Milliseconds(config.worker.deliveryTimeoutSeconds * 1000)
        for lane in lanes.values {
            for (id, flight) in lane.inFlight where now - flight.startedAt >= limit {
                timedOut(channel: lane.channel, id: id, token: flight.claimToken)
            }
        }
    }

    private func timedOut(channel: Channel, id: Int64, token: Int64) {
        guard let lane = lanes[channel], let flight = lane.inFlight[id], flight.claimToken == token else { return }
        lane.inFlight[id] = nil
        lane.abandoned += 1
        let error = SinkError(.transient, code: "timeout",
                              "no answer from \(lane.sink.name) within \(config.worker.deliveryTimeoutSeconds) s; abandoned and will retry")
        settle(completion(id: id, flight: flight, result: .failure(error)), channel: channel)
    }

    private func completion(id: Int64, flight: ChannelLane.InFlight, result: Result<DeliveryReceipt, SinkError>) -> DeliveryCompletion {
        let now = Timestamp.now()
        switch result {
        case .success(let receipt):
            if let keep = receipt.keep, keep.isTemporary { temporaryKeeps[id] = keep.path }
            return DeliveryCompletion(
                messageID: id, claimToken: flight.claimToken, result: receipt.outcome == .sent ? .sent : .submitted,
                startedAt: flight.startedAt, finishedAt: now, code: receipt.code, detail: receipt.detail,
                remoteID: receipt.remoteID, worker: owner,
                printResult: receipt.printResult,
                keep: receipt.keep.map { NewAttachment(path: $0.path, role: $0.role, filename: $0.filename, mimeType: $0.mimeType) })
        case .failure(let error):
            let outcome: DeliveryCompletion.Result = switch error.errorClass {
            case .permanent: .permanent
            case .transient: .transient(retryAfterSeconds: error.retryAfterSeconds)
            case .uncertain: .uncertain(retryAfterSeconds: error.retryAfterSeconds)
            case .offline: .offline
            }
            return DeliveryCompletion(messageID: id, claimToken: flight.claimToken, result: outcome,
                                      startedAt: flight.startedAt, finishedAt: now, code: error.code, detail: error.detail,
                                      remoteID: error.remoteID, worker: owner)
        }
    }

    /// Queues a completion for the next group commit: completions arriving while a commit runs
    /// share the next transaction. The lane is refilled from its backlog at once, so a fast sink
    /// keeps delivering while the store commits, and the commits grow with the load. No delay is
    /// added: a kill -9 then loses at most what was in flight or not yet committed.
    private func settle(_ completion: DeliveryCompletion, channel: Channel) {
        if let lane = lanes[channel] {
            if completion.result == .offline { tripBreaker(lane, error: Worker.text(completion)) }
            startFromBacklog(lane)
        }
        pending.append(completion)
        pendingChannels.append(channel)
        guard !flushScheduled else { return }
        flushScheduled = true
        queue.async { [weak self] in
            guard let self else { return }
            flushScheduled = false
            flush()
            if stopping {
                if lanes.values.allSatisfy({ $0.inFlight.isEmpty }) && pending.isEmpty { finishRun() }
            } else {
                pump()
            }
        }
    }

    /// Writes pending completions in one transaction and logs what each did.
    func flush() {
        guard !pending.isEmpty, let store else { return }
        let batch = pending
        let effects: [CompletionEffect]
        do {
            effects = try store.complete(batch, policies: config.retry, maxLostLeases: config.worker.maxLostLeases)
        } catch {
            storeFailed(error, doing: "complete")
            return
        }
        for c in batch {
            if let path = temporaryKeeps.removeValue(forKey: c.messageID) { try? FileManager.default.removeItem(atPath: path) }
        }
        let channels = pendingChannels
        pending.removeAll()
        pendingChannels.removeAll()
        for index in batch.indices { record(batch[index], effects[index], channel: channels[index]) }
        retryEarlyReports()
    }

    private func record(_ c: DeliveryCompletion, _ effect: CompletionEffect, channel: Channel) {
        let log = Log.shared
        let verbose = Worker.verbose
        switch effect {
        case .sent:
            summary.sent += 1
            guard verbose else { return }
            log.info("sent", id: c.messageID, channel: channel, ["remote_id": c.remoteID ?? "-", "ms": "\(c.finishedAt - c.startedAt)"])
        case .submitted:
            summary.submitted += 1
            guard verbose else { return }
            log.info("submitted", id: c.messageID, channel: channel, ["remote_id": c.remoteID ?? "-"])
        case .retryScheduled(let next):
            summary.retryScheduled += 1
            guard verbose else { return }
            let uncertain = if case .uncertain = c.result { true } else { false }
            log.info(uncertain ? "uncertain" : "retry", id: c.messageID, channel: channel,
                     ["next": Timestamp.iso8601(next), "error": Worker.text(c)])
        case .failed:
            summary.failed += 1
            log.warning("failed", id: c.messageID, channel: channel, ["error": Worker.text(c)])
        case .requeued:
            if c.result == .offline {
                summary.offline += 1
                log.info("offline", id: c.messageID, channel: channel, ["error": Worker.text(c)])
            } else {
                summary.released += 1
                log.info("released", id: c.messageID, channel: channel)
            }
        case .stale:
            log.info("stale", id: c.messageID, channel: channel, ["detail": "the lease was taken over; outcome not written"])
        }
    }

    /// Whether info lines are wanted: details (times, errors) are only formatted for them,
    /// since formatting costs more than claiming and completing a message.
    static var verbose: Bool { Log.shared.level <= .info }

    static func text(_ c: DeliveryCompletion) -> String { [c.code, c.detail].compactMap { $0 }.joined(separator: ": ") }

    /// A store write failed (disk full, lock held too long). `--once` gives up with the error;
    /// a long-running worker keeps its pending outcomes and tries again a second later — if it
    /// dies instead, the leases expire and nothing is lost.
    func storeFailed(_ error: Error, doing what: String) {
        Log.shared.error("store.error", ["while": what, "error": "\(error)"])
        if case .once = mode {
            runError = error
            finishRun()
        } else {
            storeRetryAt = Timestamp.now() + 1_000
        }
    }
}
