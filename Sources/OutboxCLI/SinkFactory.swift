import OutboxEngine
import OutboxModel

/// Picks each channel's sink from the config. The only place that knows every sink module.
enum SinkFactory {
    static func make(config: Config) throws -> SinkSet {
        SinkSet([:])
    }
}
