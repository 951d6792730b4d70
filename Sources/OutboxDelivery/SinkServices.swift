import OutboxCLI
import OutboxEngine
import OutboxModel
import OutboxPrint

/// The delivery side's services: real sinks and the print engine.
public struct SinkServices: DeliveryServices {
    public init() {}

    public func sinks(config: Config) throws -> SinkSet { try SinkFactory.make(config: config) }

    public func checkPrintDestination(_ destination: String, config: Config) throws {
        try PrintSinks.checkDestination(destination, config: config.print)
    }

    public func checkPrintContent(_ job: PrintJob, files: [Int: String], config: Config) throws {
        _ = try PrintPreview.check(job: job, files: files, config: config.print)
    }

    public func renderPreview(_ job: PrintJob, files: [Int: String], config: Config, out: String) throws -> Int {
        try PrintPreview.render(job: job, files: files, config: config.print, out: out)
    }

    public func printers(config: Config) throws -> [PrinterInfo] {
        try PrinterCatalog.list(config: config.print)
    }
}
