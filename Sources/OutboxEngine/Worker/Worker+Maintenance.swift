import Dispatch
import FoundationEssentials
import OutboxModel
import OutboxStore

extension Worker {
    // MARK: - The wake-up timer

    /// Runs every `pollInterval` on `queue`. Each step is a cheap read or a clock comparison,
    /// so an idle worker costs next to nothing: another process's commit shows up as a new
    /// `PRAGMA data_version`, a retry falling due as `nextDueAt` passing.
    func tick() {
        guard !finished, let store else { return }
        let now = Timestamp.now()
        if !pending.isEmpty {
            guard now >= storeRetryAt else { return }
            flush()
        }
        expireTimedOutDeliveries(now: now)
        if now - lastHeartbeat >= leaseMilliseconds / 3 { heartbeat(now: now) }
        if now - lastRecovery >= min(5_000, max(1_000, leaseMilliseconds / 4)) { recoverLeases(now: now) }
        if case .continuous = mode {
            probeOfflineSinks(now: now)
            if now - lastFollowUp >= followUpInterval { followUp(now: now) }
        }
        var wake = false
        if let version = try? store.db.dataVersion(), version != dataVersion {
            dataVersion = version
            wake = true
            searchIndexBehind = true
        }
        if let due = nextDueAt, due <= now { wake = true }
        if wake { pump() }
        if case .continuous = mode, searchIndexBehind, isIdle { indexSearchBacklog() }
    }

    // MARK: - Search index

    /// Nothing claimed, in flight or waiting to be written.
    private var isIdle: Bool {
        pending.isEmpty && lanes.values.allSatisfy { $0.inFlight.isEmpty && $0.backlog.isEmpty }
    }

    /// Indexes a chunk of messages stored since the search index was last brought up to date
    /// (bulk enqueues leave that to here), one short transaction per tick while idle.
    private func indexSearchBacklog() {
        guard let store else { return }
        do {
            if try store.indexWaitingMessages() == 0 { searchIndexBehind = false }
        } catch {
            searchIndexBehind = false
            Log.shared.error("store.error", ["while": "search indexing", "error": "\(error)"])
        }
    }

    // MARK: - Leases

    /// Extends the leases of every delivery in flight.
    private func heartbeat(now: Milliseconds) {
        lastHeartbeat = now
        let held = lanes.values.flatMap(\.held)
        guard !held.isEmpty, let store else { return }
        do {
            let extended = try store.heartbeat(held, owner: owner, leaseMilliseconds: leaseMilliseconds, now: now)
            if extended < held.count {
                Log.shared.warning("lease.lost", ["held": "\(held.count)", "extended": "\(extended)",
                                                  "detail": "another worker recovered a lease this one held; its outcome will not be written"])
            }
        } catch {
            Log.shared.error("store.error", ["while": "heartbeat", "error": "\(error)"])
        }
    }

    /// Puts messages of crashed workers back in the queue (or fails them after too many).
    func recoverLeases(now: Milliseconds) {
        lastRecovery = now
        guard let store else { return }
        do {
            for lease in try store.recoverExpiredLeases(maxLostLeases: config.worker.maxLostLeases, recoveredBy: owner, now: now) {
                Log.shared.warning(lease.failed ? "lost-lease.failed" : "lost-lease", id: lease.id, channel: lease.channel,
                                   ["previous_owner": lease.previousOwner ?? "-"])
            }
        } catch {
            Log.shared.error("store.error", ["while": "lease recovery", "error": "\(error)"])
        }
    }

    // MARK: - Offline sinks

    /// A delivery found the sink offline: pause the lane (logged once, when it goes down).
    func tripBreaker(_ lane: ChannelLane, error: String) {
        let now = Timestamp.now()
        guard lane.breaker.trip(error: error, now: now) else { return }
        releaseBacklog(lane)
        if !summary.offlineSinks.contains(lane.sinkLabel) { summary.offlineSinks.append(lane.sinkLabel) }
        Log.shared.warning("sink.down", channel: lane.channel, ["sink": lane.sink.name, "error": error,
                                                                 "detail": "messages stay queued; probing with backoff"])
        try? store?.setSinkState(channel: lane.channel, sink: lane.sink.name, offline: true, lastError: error,
                                 nextProbeAt: lane.breaker.nextProbeAt, now: now)
    }

    private func probeOfflineSinks(now: Milliseconds) {
        guard !stopping else { return }
        for lane in lanes.values where !lane.probing {
            guard let next = lane.breaker.nextProbeAt, next <= now else { continue }
            lane.probing = true
            let sink = lane.sink, channel = lane.channel, queue = self.queue
            lane.deliveries.async { [self] in
                let answer = sink.probe()
                queue.async { self.probed(channel: channel, answer: answer) }
            }
        }
    }

    private func probed(channel: Channel, answer: SinkProbe) {
        guard !finished, let lane = lanes[channel] else { return }
        lane.probing = false
        let now = Timestamp.now()
        switch answer {
        case .reachable:
            guard lane.breaker.close() else { return }
            Log.shared.warning("sink.up", channel: channel, ["sink": lane.sink.name, "detail": "delivering again"])
            try? store?.setSinkState(channel: channel, sink: lane.sink.name, offline: false, lastError: nil, nextProbeAt: nil, now: now)
            pump()
        case .unreachable(let error):
            lane.breaker.probeFailed(error: error.description, now: now)
            Log.shared.debug("sink.probe", channel: channel, ["sink": lane.sink.name, "error": error.description])
            try? store?.setSinkState(channel: channel, sink: lane.sink.name, offline: true, lastError: error.description,
                                     nextProbeAt: lane.breaker.nextProbeAt, now: now)
        }
    }

    // MARK: - Submitted messages

    /// Asks each sink about its `submitted` messages (a CUPS job still printing, an SMS
    /// awaiting its report), on the lane's queue since the sink may block.
    private func followUp(now: Milliseconds) {
        lastFollowUp = now
        guard !stopping, let store else { return }
        for lane in lanes.values where !lane.followingUp && !lane.breaker.isOpen {
            guard let rows = try? store.submitted(channels: [lane.channel], limit: 50), !rows.isEmpty else { continue }
            lane.followingUp = true
            let sink = lane.sink, channel = lane.channel, queue = self.queue
            lane.deliveries.async { [self] in
                var news: [(SubmittedRow, FollowUp)] = []
                for row in rows {
                    let message = SubmittedMessage(messageID: row.id, uid: row.uid, destination: row.destination,
                                                   remoteID: row.remoteID, submittedAt: row.submittedAt)
                    if let answer = sink.followUp(message) { news.append((row, answer)) }
                }
                let found = news
                queue.async { self.followedUp(channel: channel, found) }
            }
        }
    }

    private func followedUp(channel: Channel, _ news: [(SubmittedRow, FollowUp)]) {
        lanes[channel]?.followingUp = false
        guard let store else { return }
        let now = Timestamp.now()
        for (row, answer) in news {
            do {
                let effect = try store.applyReport(id: row.id, outcome: ReportOutcome(rawValue: answer.outcome.rawValue) ?? .pending,
                                                   code: answer.code, detail: answer.detail, printResult: answer.printResult,
                                                   worker: owner, now: now)
                logReport(effect, id: row.id, channel: channel, code: answer.code, detail: answer.detail)
            } catch {
                Log.shared.error("store.error", id: row.id, channel: channel, ["while": "follow-up", "error": "\(error)"])
            }
        }
    }

    /// A report pushed by a gateway. An unknown uid is logged and ignored.
    func applyReport(_ report: DeliveryReport) {
        guard !finished, let store else { return }
        do {
            let effect = try store.applyReport(uid: report.uid, outcome: ReportOutcome(rawValue: report.outcome.rawValue) ?? .pending,
                                               code: report.code, detail: report.detail, worker: owner)
            if effect == .unknown {
                Log.shared.warning("report.unknown", ["uid": report.uid, "detail": "no message has this uid; ignored"])
            } else if effect == .early {
                // Kannel can report within milliseconds, before the submission is committed.
                if !earlyReports.contains(where: { $0.report == report }) {
                    earlyReports.append((report: report, receivedAt: Timestamp.now()))
                }
            } else {
                logReport(effect, id: nil, channel: nil, code: report.code, detail: report.detail, uid: report.uid)
            }
        } catch {
            Log.shared.error("store.error", ["while": "delivery report", "uid": report.uid, "error": "\(error)"])
        }
    }

    /// Applies reports that arrived before their submission was committed; gives up on one
    /// after two lease periods (the message was then recovered or failed by other means).
    func retryEarlyReports() {
        guard !earlyReports.isEmpty else { return }
        let waiting = earlyReports
        earlyReports.removeAll()
        let now = Timestamp.now()
        for (report, receivedAt) in waiting {
            if now - receivedAt > 2 * leaseMilliseconds {
                Log.shared.warning("report.dropped", ["uid": report.uid, "detail": "the message never left `sending`"])
                continue
            }
            applyReport(report)
            if let index = earlyReports.firstIndex(where: { $0.report == report }) {
                earlyReports[index].receivedAt = receivedAt
            }
        }
    }

    private func logReport(_ effect: ReportEffect, id: Int64?, channel: Channel?, code: String?, detail: String?, uid: String? = nil) {
        let details: KeyValuePairs<String, String> = ["uid": uid ?? "-", "code": code ?? "-", "detail": detail ?? "-"]
        switch effect {
        case .delivered: Log.shared.info("delivered", id: id, channel: channel, details)
        case .undelivered: Log.shared.warning("undelivered", id: id, channel: channel, details)
        case .updated: Log.shared.debug("follow-up", id: id, channel: channel, details)
        case .ignored: Log.shared.info("report.ignored", id: id, channel: channel, ["detail": "the message is already final"])
        case .unknown, .early: break
        }
    }
}
