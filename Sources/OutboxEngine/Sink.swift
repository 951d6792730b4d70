import OutboxModel

/// A destination that delivers messages of one channel: an SMTP server, an SMS gateway, a CUPS
/// queue, a directory. The worker calls `deliver` on a per-channel queue, so a sink may block
/// (curl, cups); one sink value serves several deliveries at once, so it must be thread-safe.
///
/// A sink reports failure by throwing `SinkError` with its class: the worker decides from the
/// class alone whether to retry, fail, or pause the sink.
public protocol Sink: Sendable {
    var channel: Channel { get }
    /// Short name shown in `status` and logs: `smtp`, `directory`, `kannel`, `cups`, `pdf`.
    var name: String { get }

    /// Where messages go, in plain words, for `status`:
    /// "capturing to ~/.local/share/outbox/out/mail — no SMTP configured".
    var destinationDescription: String { get }

    /// Delivers one message. Blocking; must respect its own timeouts.
    func deliver(_ delivery: Delivery) throws(SinkError) -> DeliveryReceipt

    /// Checks the sink is reachable, for `status` and for probing a paused sink.
    func probe() -> SinkProbe

    /// Follows a `submitted` message (a CUPS job still printing, an SMS awaiting its report).
    /// Returns `nil` while there is nothing new.
    func followUp(_ message: SubmittedMessage) -> FollowUp?

    /// Starts whatever listens for reports pushed by the gateway (Kannel's dlr-url); each report
    /// is handed to `report`. Called once by a long-running worker.
    func startReceivingReports(_ report: @escaping @Sendable (DeliveryReport) -> Void) throws(SinkError)

    /// Stops listeners and closes connections at shutdown.
    func shutdown()
}

extension Sink {
    public func probe() -> SinkProbe { .reachable(detail: destinationDescription) }
    public func followUp(_ message: SubmittedMessage) -> FollowUp? { nil }
    public func startReceivingReports(_ report: @escaping @Sendable (DeliveryReport) -> Void) throws(SinkError) {}
    public func shutdown() {}
}
