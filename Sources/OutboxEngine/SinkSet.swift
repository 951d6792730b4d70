import OutboxModel

/// The sinks the worker delivers to, one per channel, chosen from the config by the CLI.
public struct SinkSet: Sendable {
    public var sinks: [Channel: any Sink]

    public init(_ sinks: [Channel: any Sink]) { self.sinks = sinks }

    public func sink(for channel: Channel) -> (any Sink)? { sinks[channel] }
}
