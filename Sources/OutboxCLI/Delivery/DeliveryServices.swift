import OutboxEngine
import OutboxModel

/// What only the delivery side can do: build the real sinks (libcurl, libcups, Pango/Cairo)
/// and check or render print jobs. The `outbox` front end does not link those libraries —
/// loading them costs about 30 ms per process, three times a whole `outbox mail` — so a command
/// that needs them asks `DeliveryProgram.services()`, which re-executes the same command line
/// in `outbox-delivery` (installed next to `outbox`) when they are not loaded.
public protocol DeliveryServices: Sendable {
    /// Each channel's sink, from the config.
    func sinks(config: Config) throws -> SinkSet
    /// `pdf` or a CUPS queue that exists (unknown → 65; CUPS unreachable → accepted).
    func checkPrintDestination(_ destination: String, config: Config) throws
    /// Lays a print job out without writing it: a corrupt document or a bad font → 65.
    func checkPrintContent(_ job: PrintJob, files: [Int: String], config: Config) throws
    /// Renders a print job to `out`; returns the page count.
    func renderPreview(_ job: PrintJob, files: [Int: String], config: Config, out: String) throws -> Int
    /// CUPS destinations.
    func printers(config: Config) throws -> [PrinterInfo]
}
