import CCups
import Foundation
import OutboxEngine
import OutboxModel

/// One HTTP connection to cupsd (`http_t`), to the configured server or libcups' default.
/// Every libcups call of the sink goes through an explicit connection rather than libcups'
/// per-thread default, so the worker's threads all talk to the server the config names.
final class CUPSConnection {
    /// `http_t *`
    let http: OpaquePointer
    /// What we connected to, for messages.
    let server: String
    private var closed = false

    /// Connects; cupsd down or unreachable is `offline` (the job stays queued, no attempt spent).
    init(server configured: String?) throws(SinkError) {
        // cupsSetServer is per thread in libcups: set it on this thread too, so calls that
        // take no connection (cupsUser, option defaults) agree with it.
        if let configured { cupsSetServer(configured) }
        let server = configured ?? String(cString: cupsServer())
        var host = server
        var port = ippPort()
        if !server.hasPrefix("/"), let colon = server.lastIndex(of: ":"), let number = Int32(server[server.index(after: colon)...]) {
            host = String(server[..<colon])
            port = number
        }
        guard let http = httpConnect2(host, port, nil, AF_UNSPEC, cupsEncryption(), 1, 10_000, nil) else {
            throw SinkError(.offline, code: "cups unreachable", "cannot reach the CUPS server at \(server): \(String(cString: strerror(errno)))")
        }
        self.http = http
        self.server = server
    }

    func close() {
        guard !closed else { return }
        closed = true
        httpClose(http)
    }

    deinit { close() }

    /// `cupsLastError()` and its text, for error details.
    static var lastError: (status: ipp_status_t, message: String) {
        (cupsLastError(), cupsLastErrorString().map { String(cString: $0) } ?? "")
    }

    /// Looks a destination up by name. Unknown → `permanent`; server trouble → `offline`.
    func destination(named name: String) throws(SinkError) -> CUPSDestination {
        if let dest = cupsGetNamedDest(http, name, nil) {
            return CUPSDestination(dest)
        }
        let (status, message) = Self.lastError
        if status == IPP_STATUS_ERROR_NOT_FOUND || status == IPP_STATUS_OK || status.rawValue < 0x0500 {
            throw SinkError(.permanent, code: "ipp client-error-not-found",
                            "CUPS at \(server) has no printer \(name): see `outbox printers` or `lpstat -p`")
        }
        throw SinkError(.offline, code: "ipp \(String(cString: ippErrorString(status)))", "CUPS at \(server) did not answer for \(name): \(message)")
    }
}

@available(*, unavailable) extension CUPSConnection: Sendable {}
