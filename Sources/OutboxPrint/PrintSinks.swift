import OutboxEngine
import OutboxModel

/// The print channel's sinks, built from the config.
public enum PrintSinks {
    /// One sink for the print channel: each delivery goes to the PDF directory or a CUPS
    /// queue by `delivery.destination ?? config.defaultDestination`.
    public static func make(config: PrintConfig) -> any Sink {
        PrintRouterSink(config: config)
    }
}
