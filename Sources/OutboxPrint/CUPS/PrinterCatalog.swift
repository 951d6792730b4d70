import CCups
import OutboxEngine
import OutboxModel

/// The CUPS destinations of the configured server, for `outbox printers` and compose-time
/// checks.
public enum PrinterCatalog {
    /// All destinations with their duplex/colour/media support. Throws `unavailable` (69)
    /// when CUPS cannot be reached.
    public static func list(config: PrintConfig) throws(OutboxError) -> [PrinterInfo] {
        let connection: CUPSConnection
        do { connection = try CUPSConnection(server: config.cupsServer) } catch {
            throw OutboxError(.unavailable, error.detail + "; start cupsd or set print.cups.server")
        }
        defer { connection.close() }
        var dests: UnsafeMutablePointer<cups_dest_t>?
        let count = cupsGetDests2(connection.http, &dests)
        defer { cupsFreeDests(count, dests) }
        if count == 0, cupsLastError().rawValue >= 0x0400, cupsLastError() != IPP_STATUS_ERROR_NOT_FOUND {
            throw OutboxError(.unavailable, "CUPS at \(connection.server) did not list its printers: \(CUPSConnection.lastError.message)")
        }
        var printers: [PrinterInfo] = []
        for index in 0..<Int(count) {
            guard let copy = copyDest(dests! + index) else { continue }
            let destination = CUPSDestination(copy)
            let sides = destination.supportedValues("sides", connection: connection)
            let colors = destination.supportedValues("print-color-mode", connection: connection)
            let state = ["3": "idle", "4": "processing", "5": "stopped"][destination.option("printer-state") ?? ""] ?? "unknown"
            printers.append(PrinterInfo(
                name: destination.name, isDefault: destination.isDefault, info: destination.option("printer-info"),
                location: destination.option("printer-location"), state: state, stateReasons: destination.stateReasons,
                acceptingJobs: destination.isAcceptingJobs, duplex: sides.contains { $0.hasPrefix("two-sided") },
                color: colors.contains("color"), media: destination.supportedValues("media", connection: connection)))
        }
        return printers.sorted { $0.name < $1.name }
    }

    /// A destination copied out of a list, so it can be freed on its own.
    private static func copyDest(_ dest: UnsafeMutablePointer<cups_dest_t>) -> UnsafeMutablePointer<cups_dest_t>? {
        var copy: UnsafeMutablePointer<cups_dest_t>?
        let count = cupsCopyDest(dest, 0, &copy)
        return count == 1 ? copy : nil
    }
}
