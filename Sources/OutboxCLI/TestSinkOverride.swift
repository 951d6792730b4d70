import FoundationEssentials
import Glibc
import OutboxEngine
import OutboxModel

/// Hook for process-level tests and benchmarks to swap in fault-injecting sinks, chosen by
/// `OUTBOX_TEST_SINK` (undocumented on purpose: not for users). Without it the sinks are
/// returned unchanged.
///
/// - `noop`: every channel accepts at once, writing nothing (engine throughput benchmark).
/// - `slow:SECONDS`: the real sink, after SECONDS of waiting (graceful-stop and kill tests).
/// - `offline`: every channel refuses connections (offline handling).
enum TestSinkOverride {
    static let variable = "OUTBOX_TEST_SINK"

    static func apply(to sinks: SinkSet, environment: [String: String]) throws -> SinkSet {
        guard let spec = environment[variable], !spec.isEmpty else { return sinks }
        var replaced: [Channel: any Sink] = [:]
        for (channel, sink) in sinks.sinks {
            switch spec.split(separator: ":", maxSplits: 1).map(String.init) {
            case ["noop"]: replaced[channel] = FaultSink(channel: channel, wrapped: nil, delay: 0, offline: false)
            case ["offline"]: replaced[channel] = FaultSink(channel: channel, wrapped: sink, delay: 0, offline: true)
            case let parts where parts.count == 2 && parts[0] == "slow" && Double(parts[1]) != nil:
                replaced[channel] = FaultSink(channel: channel, wrapped: sink, delay: Double(parts[1])!, offline: false)
            default:
                throw OutboxError.config("\(variable)=\(spec) is not one of noop, slow:SECONDS, offline")
            }
        }
        return SinkSet(replaced)
    }

    /// Delays, replaces or refuses the deliveries of a real sink.
    struct FaultSink: Sink {
        let channel: Channel
        let wrapped: (any Sink)?
        let delay: Double
        let offline: Bool

        var name: String { wrapped?.name ?? "noop" }
        var destinationDescription: String { "test sink (\(TestSinkOverride.variable))" }

        func deliver(_ delivery: Delivery) throws(SinkError) -> DeliveryReceipt {
            if offline { throw SinkError(.offline, code: "test", "refusing connections (\(TestSinkOverride.variable)=offline)") }
            if delay > 0 { usleep(UInt32(delay * 1_000_000)) }
            guard let wrapped else { return DeliveryReceipt(outcome: .sent, remoteID: delivery.uid) }
            return try wrapped.deliver(delivery)
        }

        func probe() -> SinkProbe {
            offline ? .unreachable(SinkError(.offline, code: "test", "refusing connections")) : .reachable(detail: "test")
        }
    }
}
