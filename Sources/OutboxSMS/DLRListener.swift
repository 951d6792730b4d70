import Foundation
import OutboxEngine
import OutboxModel
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A minimal loopback HTTP endpoint for Kannel's `dlr-url` callbacks.
///
/// Foundation has no HTTP server and the callback is one GET with everything in the query
/// string, so this reads only the request line, answers `200` and closes. It is meant for
/// `127.0.0.1`: there is no TLS and no authentication, and a report only names a uid.
final class DLRListener: Sendable {
    /// The port actually bound (useful when asked for port 0).
    let port: UInt16
    let host: String
    private let socket: Int32
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Binds `host:port` and starts answering on a thread of its own; `handle` gets each
    /// request's decoded query parameters.
    init(host: String, port: UInt16, handle: @escaping @Sendable ([String: String]) -> Void) throws(SinkError) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw SinkError(.offline, code: "config", "sms.kannel.dlr_listen: \(host) is not an IPv4 address")
        }
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Self.failure("socket", host, port) }
        var yes: Int32 = 1
        guard setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            let error = Self.failure("setsockopt", host, port)
            close(fd)
            throw error
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            let error = Self.failure("bind", host, port)
            close(fd)
            throw error
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            let error = Self.failure("getsockname", host, port)
            close(fd)
            throw error
        }
        self.port = UInt16(bigEndian: actual.sin_port)
        self.host = host
        self.socket = fd
        let thread = Thread { [self] in
            acceptLoop(handle)
            close(fd)
            finished.signal()
        }
        thread.name = "outbox-dlr-listener"
        thread.start()
    }

    /// Stops accepting and waits (briefly) for the thread to finish the request in hand.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // shutdown() wakes the blocked accept(); the accepting thread closes the descriptor.
        _ = shutdown(socket, Int32(SHUT_RDWR))
        _ = finished.wait(timeout: .now() + 5)
    }

    private func acceptLoop(_ handle: @Sendable ([String: String]) -> Void) {
        while !stopped.load(ordering: .acquiring) {
            let client = accept(socket, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                if !stopped.load(ordering: .acquiring) {
                    Log.shared.error("dlr listener stopped", channel: .sms, ["errno": String(cString: strerror(errno))])
                }
                return
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)  // accept4 needs _GNU_SOURCE, which Glibc's module lacks
            serve(client, handle)
            close(client)
        }
    }

    private func serve(_ client: Int32, _ handle: @Sendable ([String: String]) -> Void) {
        // A stuck or silent client must not block the next report.
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        _ = setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var request = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        // Read the whole head, so closing does not reset a connection with unread bytes.
        while request.count < 16_384, !Self.containsEndOfHead(request) {
            let n = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            request.append(contentsOf: buffer[0..<n])
        }
        let lineEnd = request.firstIndex(of: UInt8(ascii: "\r")) ?? request.firstIndex(of: UInt8(ascii: "\n")) ?? request.endIndex
        let line = String(decoding: request[..<lineEnd], as: UTF8.self)
        let parts = line.split(separator: " ")
        let ok = parts.count >= 2 && (parts[0] == "GET" || parts[0] == "POST")
        if ok, let question = parts[1].firstIndex(of: "?") {
            handle(FormEncoding.parseQuery(parts[1][parts[1].index(after: question)...]))
        }
        let reply = ok ? "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 3\r\nConnection: close\r\n\r\nok\n"
                       : "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        var bytes = Array(reply.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeMutableBytes { send(client, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            sent += n
        }
    }

    private static func containsEndOfHead(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return true
        }
        return false
    }

    private static func failure(_ call: String, _ host: String, _ port: UInt16) -> SinkError {
        let code = errno
        return SinkError(.offline, code: "errno \(code)",
                         "cannot listen for delivery reports on \(host):\(port) (\(call)): \(String(cString: strerror(code)))")
    }
}
