import Foundation
@testable import OutboxEngine
import OutboxModel
import OutboxStore
import OutboxTestSupport

/// A fresh database in a temporary directory, with helpers to queue and inspect messages.
final class Fixture {
    let directory = TemporaryDirectory("outbox-worker")
    let path: String
    let store: OutboxStore

    init() throws {
        path = directory.file("outbox.sqlite")
        store = try OutboxStore.open(path: path)
    }

    deinit {
        store.close()
        directory.remove()
    }

    static func mail(_ n: Int, retry: RetryPolicy? = nil, priority: Int = 0) -> NewMessage {
        NewMessage(content: .mail(MailContent(to: ["user\(n)@example.org"], subject: "test \(n)", textBody: "body \(n)")),
                   priority: priority, retry: retry)
    }

    static func sms(_ n: Int, retry: RetryPolicy? = nil) -> NewMessage {
        NewMessage(content: .sms(SMSContent(recipient: "+4917012345\(n % 100)", body: "sms \(n)")), retry: retry)
    }

    @discardableResult
    func queue(_ messages: [NewMessage]) throws -> [Int64] {
        try store.enqueueBatch(messages.map { [$0] }).flatMap(\.ids)
    }

    func state(_ id: Int64) throws -> MessageState? { try store.summary(id: id)?.state }
    func summary(_ id: Int64) throws -> MessageSummary { try store.summary(id: id)! }
    func attempts(_ id: Int64) throws -> [AttemptRecord] { try store.attempts(id: id) }
    func count(_ state: MessageState) throws -> Int {
        try store.db.scalar("SELECT count(*) FROM message WHERE state = ?", [state.rawValue]) ?? 0
    }

    /// A config whose retries come quickly, for tests that watch retries happen.
    static func fastConfig(maxAttempts: Int = 5, timeout: Double = 300, grace: Double = 5, lease: Double = 60) -> Config {
        var config = Config()
        for channel in Channel.allCases {
            config.retry[channel] = RetryPolicy(maxAttempts: maxAttempts, baseSeconds: 0.02, maxDelaySeconds: 0.05, deadlineHours: 1)
        }
        config.worker.deliveryTimeoutSeconds = timeout
        config.worker.shutdownGraceSeconds = grace
        config.worker.leaseSeconds = lease
        return config
    }

    func worker(_ sinks: [any Sink], config: Config = Fixture.fastConfig(), owner: String = "test-worker") -> Worker {
        let worker = Worker(databasePath: path, config: config,
                            sinks: SinkSet(Dictionary(uniqueKeysWithValues: sinks.map { ($0.channel, $0) })),
                            channels: Set(sinks.map(\.channel)), owner: owner)
        worker.probeBackoff = (50, 200)
        worker.pollInterval = .milliseconds(20)
        return worker
    }
}

/// Runs a worker's `run()` on a Dispatch thread; `stop()` and `wait()` end it.
final class RunningWorker: Sendable {
    let worker: Worker
    private let finished = DispatchSemaphore(value: 0)

    init(_ worker: Worker) {
        self.worker = worker
        let finished = self.finished
        DispatchQueue.global().async {
            try? worker.run()
            finished.signal()
        }
    }

    /// Stops the worker as SIGTERM would and waits for `run()` to return.
    @discardableResult
    func stop(timeout: Double = 20) -> Bool {
        worker.stop()
        return finished.wait(timeout: .now() + timeout) == .success
    }
}
