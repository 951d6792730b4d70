import Dispatch
import FoundationEssentials
import Glibc
import OutboxModel
import OutboxStore

/// The Dispatch worker: claims due messages, delivers them through their channel's sink and
/// records every outcome, fenced by lease and claim token so several workers (threads or
/// processes) can share one database.
///
/// Threads: one serial queue (`queue`) owns the store connection and every piece of mutable
/// state below; sinks run on their lane's concurrent queue and hand results back to `queue`.
/// That confinement is why the class can be `@unchecked Sendable`: nothing mutable is touched
/// off `queue`.
public final class Worker: @unchecked Sendable {
    public let databasePath: String
    public let config: Config
    public let sinks: SinkSet
    public let channels: Set<Channel>
    public let owner: String

    /// How often the wake-up timer looks at `PRAGMA data_version` and the next due time.
    /// A cheap read, not a busy loop: it costs microseconds and keeps pick-up well under a second.
    var pollInterval: DispatchTimeInterval = .milliseconds(75)
    /// First and longest wait between probes of an offline sink.
    var probeBackoff: (initial: Milliseconds, maximum: Milliseconds) = (1_000, 60_000)
    /// How often `submitted` messages are followed up.
    var followUpInterval: Milliseconds = 5_000

    enum Mode { case once(dueBy: Milliseconds), continuous }

    let queue = DispatchQueue(label: "outbox.worker.store")

    // MARK: State (confined to `queue`)
    var store: OutboxStore?
    var plan: ClaimPlan?
    var lanes: [Channel: ChannelLane] = [:]
    var mode: Mode = .continuous
    var summary = WorkerSummary()
    var pending: [DeliveryCompletion] = []
    /// Delivery reports that came in before their submission was committed.
    var earlyReports: [(report: DeliveryReport, receivedAt: Milliseconds)] = []
    /// Scratch files sinks asked to keep, deleted once their completion is committed.
    var temporaryKeeps: [Int64: String] = [:]
    /// The channel of each pending completion, index for index.
    var pendingChannels: [Channel] = []
    var flushScheduled = false
    var storeRetryAt: Milliseconds = 0
    var stopping = false
    var finished = false
    var runError: Error?
    var timer: DispatchSourceTimer?
    var dataVersion = -1
    var nextDueAt: Milliseconds?
    /// Messages may be waiting for the search index (set when another process commits).
    var searchIndexBehind = true
    var lastHeartbeat: Milliseconds = 0
    var lastRecovery: Milliseconds = 0
    var lastFollowUp: Milliseconds = 0
    let done = DispatchSemaphore(value: 0)

    /// - Parameters:
    ///   - channels: the channels this worker serves (`--channel`); a channel without a sink in
    ///     `sinks` is skipped.
    ///   - owner: written as the lease owner, e.g. `host:pid`; unique per running worker.
    public init(databasePath: String, config: Config, sinks: SinkSet, channels: Set<Channel>, owner: String) {
        self.databasePath = databasePath
        self.config = config
        self.sinks = sinks
        self.channels = channels
        self.owner = owner
    }

    /// A lease owner naming this host and process, unique per worker.
    public static func defaultOwner() -> String {
        "\(ProcessInfo.processInfo.hostName):\(getpid()):\(UUID().uuidString.prefix(8).lowercased())"
    }

    // MARK: - Running

    /// Delivers everything that was due when it started (what becomes due while it runs
    /// waits for the next run), then returns what it did. A sink found offline is not probed:
    /// its messages stay queued and the summary names it.
    public func runOnce() throws -> WorkerSummary {
        try start(once: true)
        done.wait()
        if let runError { throw runError }
        return summary
    }

    /// Runs until SIGINT or SIGTERM (or `stop()`): then it stops claiming, lets deliveries in
    /// flight finish within the grace period, and releases the rest back to `queued`. A second
    /// signal exits at once; leases then expire and another worker recovers the messages.
    public func run() throws {
        let signals = SignalHandling(queue: queue, first: { [self] signal in
            Log.shared.info("worker.stopping", ["signal": signal, "grace_seconds": "\(config.worker.shutdownGraceSeconds)"])
            beginShutdown()
        }, second: { signal in
            Log.shared.warning("worker.exit", ["signal": signal, "detail": "second signal: exiting now; leases will expire"])
            exit(128 + (signal == "SIGINT" ? SIGINT : SIGTERM))
        })
        defer { signals.cancel() }
        try start(once: false)
        done.wait()
        if let runError { throw runError }
    }

    /// Asks a running worker to stop as on SIGTERM: stop claiming, finish or release what is
    /// in flight. Returns at once; `run()` returns when it is done.
    public func stop() {
        queue.async { self.beginShutdown() }
    }

    private func start(once: Bool) throws {
        try queue.sync {
            // `stop()` may have come first: then there is nothing to start.
            guard !finished else { return }
            let store = try OutboxStore.open(path: databasePath)
            self.store = store
            plan = try store.claimPlan()
            for channel in channels.sorted() {
                guard let sink = sinks.sink(for: channel) else {
                    Log.shared.debug("worker.skip", channel: channel, ["detail": "no sink configured"])
                    continue
                }
                lanes[channel] = ChannelLane(channel: channel, sink: sink, limit: config.worker.concurrency[channel] ?? 1,
                                             breaker: CircuitBreaker(initialBackoff: probeBackoff.initial,
                                                                     maximumBackoff: probeBackoff.maximum))
            }
            recoverLeases(now: Timestamp.now())
            mode = once ? .once(dueBy: Timestamp.now()) : .continuous
            Log.shared.info("worker.start", ["owner": owner, "mode": once ? "once" : "continuous",
                                             "channels": lanes.keys.sorted().map(\.rawValue).joined(separator: ",")])
            if !once { startReceivingReports() }
            dataVersion = (try? store.db.dataVersion()) ?? -1
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + pollInterval, repeating: pollInterval, leeway: .milliseconds(20))
            timer.setEventHandler { [weak self] in self?.tick() }
            timer.resume()
            self.timer = timer
            pump()
        }
    }

    /// Hands pushed delivery reports (Kannel's dlr-url) to the store queue.
    private func startReceivingReports() {
        for lane in lanes.values {
            let queue = self.queue
            do {
                try lane.sink.startReceivingReports { [self] report in
                    queue.async { self.applyReport(report) }
                }
            } catch {
                Log.shared.warning("reports.unavailable", channel: lane.channel, ["sink": lane.sink.name, "error": error.description])
            }
        }
    }

    // MARK: - Stopping

    func beginShutdown() {
        guard !finished, !stopping else { return }
        stopping = true
        for lane in lanes.values { releaseBacklog(lane) }
        let inFlight = lanes.values.reduce(0) { $0 + $1.inFlight.count }
        if inFlight == 0 && pending.isEmpty { finishRun(); return }
        Log.shared.info("worker.draining", ["in_flight": "\(inFlight)"])
        queue.asyncAfter(deadline: .now() + config.worker.shutdownGraceSeconds) { [weak self] in self?.releaseRemaining() }
    }

    /// The grace period is over: give back what is still in flight, unsent, with no attempt spent.
    private func releaseRemaining() {
        guard !finished else { return }
        let now = Timestamp.now()
        for lane in lanes.values {
            for (id, flight) in lane.inFlight {
                pending.append(DeliveryCompletion(messageID: id, claimToken: flight.claimToken, result: .released,
                                                  startedAt: flight.startedAt, finishedAt: now, code: "shutdown",
                                                  detail: "released unsent at worker shutdown", worker: owner))
                pendingChannels.append(lane.channel)
            }
            lane.inFlight.removeAll()
        }
        flush()
        finishRun()
    }

    /// Ends the run once: stops the timer, shuts the sinks down, closes the store.
    func finishRun() {
        guard !finished else { return }
        finished = true
        timer?.cancel()
        timer = nil
        if case .continuous = mode { for lane in lanes.values { lane.sink.shutdown() } }
        Log.shared.info("worker.stop", ["summary": summary.line])
        store?.close()
        store = nil
        done.signal()
    }

    /// True when a `--once` run has nothing left to do.
    var onceComplete: Bool {
        guard case .once = mode else { return false }
        return pending.isEmpty && lanes.values.allSatisfy { $0.inFlight.isEmpty && $0.backlog.isEmpty && ($0.drained || $0.breaker.isOpen) }
    }
}
