import OutboxEngine

/// Hook for process-level tests to swap in fault-injecting sinks. Without the test environment
/// variables it returns the sinks unchanged.
enum TestSinkOverride {
    static func apply(to sinks: SinkSet, environment: [String: String]) -> SinkSet { sinks }
}
