import OutboxEngine
import OutboxModel

/// The print channel's sinks, built from the config.
public enum PrintSinks {
    /// One sink for the print channel: each delivery goes to the PDF directory or a CUPS
    /// queue by `delivery.destination ?? config.defaultDestination`.
    public static func make(config: PrintConfig) -> any Sink {
        PrintRouterSink(config: config)
    }

    /// The compose-time `canPrint` check of a destination. `pdf` is always fine. A CUPS queue
    /// the server does not have is refused (65); while CUPS cannot be reached the job may be
    /// queued all the same — printing offline is the point — and fails permanently later if
    /// the queue turns out not to exist.
    public static func checkDestination(_ name: String, config: PrintConfig) throws(OutboxError) {
        guard name != PrintRouterSink.pdfDestination else { return }
        guard !name.isEmpty, !name.contains("/"), !name.contains(" ") else {
            throw .data("\(name.isEmpty ? "an empty name" : name) is not a printer name: use `pdf` or a CUPS queue from `outbox printers`")
        }
        let connection: CUPSConnection
        do { connection = try CUPSConnection(server: config.cupsServer) } catch { return }
        defer { connection.close() }
        do {
            _ = try connection.destination(named: name)
        } catch where error.errorClass == .permanent {
            throw .data("unknown printer \(name): `outbox printers` lists the CUPS queues, or use --to pdf")
        } catch {
            return
        }
    }
}
