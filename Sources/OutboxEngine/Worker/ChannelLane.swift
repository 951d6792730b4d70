import Dispatch
import OutboxModel
import OutboxStore

/// One channel's sink, its concurrency limit and what it is delivering right now.
///
/// Deliveries run on the lane's own concurrent queue, so a slow or hung sink only ever holds
/// its own lane's slots. The bookkeeping (`inFlight`, `breaker`) is confined to the worker's
/// store queue, like all worker state.
final class ChannelLane {
    /// A delivery that has been handed to the sink and not yet settled.
    struct InFlight {
        var claimToken: Int64
        var attemptNumber: Int
        var startedAt: Milliseconds
    }

    let channel: Channel
    let sink: any Sink
    let limit: Int
    let deliveries: DispatchQueue
    var inFlight: [Int64: InFlight] = [:]
    /// Claimed in one batch but not yet started: claiming many at once keeps the claim
    /// transactions few. Their leases are extended with the in-flight ones.
    var backlog: [ClaimedMessage] = []
    var breaker: CircuitBreaker
    /// `--once`: nothing more was due when this lane last claimed.
    var drained = false
    var probing = false
    var followingUp = false
    /// Deliveries abandoned after the timeout whose sink call has not returned yet.
    var abandoned = 0

    init(channel: Channel, sink: any Sink, limit: Int, breaker: CircuitBreaker) {
        self.channel = channel
        self.sink = sink
        self.limit = max(1, limit)
        self.breaker = breaker
        deliveries = DispatchQueue(label: "outbox.worker.\(channel.rawValue)", attributes: .concurrent)
    }

    var freeSlots: Int { breaker.isOpen ? 0 : max(0, limit - inFlight.count) }

    /// How many to claim at once: the free slots, plus a prefetch of a few rounds of them.
    var claimBatch: Int { max(freeSlots, min(256, limit * 16)) }

    var held: [(id: Int64, claimToken: Int64)] {
        inFlight.map { (id: $0.key, claimToken: $0.value.claimToken) } + backlog.map { (id: $0.id, claimToken: $0.claimToken) }
    }

    var sinkLabel: String { "\(channel.rawValue)/\(sink.name)" }
}
