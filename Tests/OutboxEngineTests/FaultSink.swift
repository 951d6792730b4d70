import Dispatch
import Foundation
import OutboxEngine
import OutboxModel
import Synchronization

/// A test double that fails on command: transient N times then success, permanent, hang past
/// the timeout, uncertain, offline until switched back. Records every call.
final class FaultSink: Sink {
    enum Behavior: Sendable {
        case succeed
        case fail(SinkError)
        /// Blocks until `release()` (or 30 s), then succeeds.
        case hang
        /// Takes this long, then succeeds.
        case slow(Double)
    }

    let channel: Channel
    let name: String
    var destinationDescription: String { "test sink \(name)" }
    /// Decides each call from the delivery and how many times this uid was delivered before.
    private let script: @Sendable (Delivery, Int) -> Behavior
    private let calls = Mutex<[(uid: String, attempt: Int, id: Int64)]>([])
    private let offline = Mutex(false)
    private let gate = DispatchSemaphore(value: 0)
    let probes = Atomic<Int>(0)

    init(_ channel: Channel = .mail, name: String = "fault", script: @escaping @Sendable (Delivery, Int) -> Behavior = { _, _ in .succeed }) {
        self.channel = channel
        self.name = name
        self.script = script
    }

    func deliver(_ delivery: Delivery) throws(SinkError) -> DeliveryReceipt {
        if offline.withLock({ $0 }) { throw SinkError(.offline, code: "curl 7", "connection refused") }
        let previous = calls.withLock { calls in
            defer { calls.append((delivery.uid, delivery.attemptNumber, delivery.messageID)) }
            return calls.filter { $0.uid == delivery.uid }.count
        }
        switch script(delivery, previous) {
        case .succeed: break
        case .fail(let error): throw error
        case .hang: _ = gate.wait(timeout: .now() + 30)
        case .slow(let seconds): usleep(UInt32(seconds * 1_000_000))
        }
        return DeliveryReceipt(outcome: .sent, remoteID: "r-\(delivery.messageID)-\(previous)", code: "ok")
    }

    func probe() -> SinkProbe {
        probes.add(1, ordering: .relaxed)
        return offline.withLock { $0 } ? .unreachable(SinkError(.offline, code: "curl 7", "connection refused")) : .reachable(detail: "ok")
    }

    func setOffline(_ value: Bool) { offline.withLock { $0 = value } }
    /// Lets every hung delivery return.
    func release(_ count: Int = 16) { for _ in 0..<count { gate.signal() } }

    var callCount: Int { calls.withLock { $0.count } }
    func deliveries(uid: String) -> [Int] { calls.withLock { $0.filter { $0.uid == uid }.map(\.attempt) } }
    var uids: [String] { calls.withLock { $0.map(\.uid) } }
}
