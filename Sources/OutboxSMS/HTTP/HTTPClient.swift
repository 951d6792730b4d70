import CCurl
import Foundation
import OutboxEngine
import Synchronization

/// The HTTP client the gateway sinks share, on libcurl.
///
/// Keeps a small pool of easy handles: each request borrows one, so concurrent deliveries never
/// share a handle, and a handle returned to the pool keeps its open connection for the next
/// request to the same gateway (keep-alive instead of a TCP handshake per message).
final class HTTPClient: Sendable {
    let connectTimeoutSeconds: Double
    let timeoutSeconds: Double
    /// Idle handles (their connections stay open) — the only shared state.
    private let pool = Mutex<[PooledHandle]>([])
    private let maxIdle: Int

    init(connectTimeoutSeconds: Double = 10, timeoutSeconds: Double = 30, maxIdle: Int = 8) {
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.timeoutSeconds = timeoutSeconds
        self.maxIdle = maxIdle
    }

    /// Sends `request` and returns whatever status came back; only a missing answer throws.
    func send(_ request: HTTPRequest) throws(HTTPFailure) -> HTTPResponse {
        let easy: CurlEasy
        if let idle = pool.withLock({ $0.popLast() }) { easy = idle.take() } else { easy = try CurlEasy() }
        let response = try send(request, on: easy)
        let returned = PooledHandle(easy)
        pool.withLock { idle in if idle.count < maxIdle { idle.append(returned) } }
        return response
    }

    /// Closes every idle connection.
    func close() { pool.withLock { $0.removeAll() } }

    private func send(_ request: HTTPRequest, on easy: CurlEasy) throws(HTTPFailure) -> HTTPResponse {
        try easy.reset()
        try easy.set(CURLOPT_URL, request.url, "CURLOPT_URL")
        try easy.set(CURLOPT_PROTOCOLS_STR, "http,https", "CURLOPT_PROTOCOLS_STR")
        // Many threads call curl: no SIGALRM-based DNS timeouts.
        try easy.set(CURLOPT_NOSIGNAL, 1, "CURLOPT_NOSIGNAL")
        try easy.set(CURLOPT_CONNECTTIMEOUT_MS, Int(connectTimeoutSeconds * 1000), "CURLOPT_CONNECTTIMEOUT_MS")
        try easy.set(CURLOPT_TIMEOUT_MS, Int(timeoutSeconds * 1000), "CURLOPT_TIMEOUT_MS")
        try easy.set(CURLOPT_USERAGENT, "outbox", "CURLOPT_USERAGENT")
        switch request.method {
        case .get:
            try easy.set(CURLOPT_HTTPGET, 1, "CURLOPT_HTTPGET")
        case .post:
            let body = request.body ?? Data()
            try easy.set(CURLOPT_POST, 1, "CURLOPT_POST")
            try easy.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(body.count), "CURLOPT_POSTFIELDSIZE_LARGE")
            // COPYPOSTFIELDS copies the bytes, so they need not outlive this call.
            var bytes = [UInt8](body)
            if bytes.isEmpty { bytes.append(0) }  // a valid pointer; the size above says 0
            try bytes.withUnsafeMutableBytes { raw in easy.setPointerResult(CURLOPT_COPYPOSTFIELDS, raw.baseAddress) }
                .check("CURLOPT_COPYPOSTFIELDS")
        }
        if let auth = request.basicAuth {
            try easy.set(CURLOPT_HTTPAUTH, 1 /* CURLAUTH_BASIC */, "CURLOPT_HTTPAUTH")
            try easy.set(CURLOPT_USERNAME, auth.user, "CURLOPT_USERNAME")
            try easy.set(CURLOPT_PASSWORD, auth.password, "CURLOPT_PASSWORD")
        }

        // An empty `Expect:` stops curl from waiting for `100 Continue` on larger bodies.
        var list: UnsafeMutablePointer<curl_slist>? = curl_slist_append(nil, "Expect:")
        for header in request.headers {
            guard let appended = curl_slist_append(list, "\(header.name): \(header.value)") else {
                curl_slist_free_all(list)
                throw HTTPFailure(curlCode: Int(CURLE_OUT_OF_MEMORY.rawValue), message: "curl_slist_append failed", requestSent: false)
            }
            list = appended
        }
        defer { curl_slist_free_all(list) }
        try easy.set(headers: list)

        let collector = ResponseCollector()
        let context = Unmanaged.passRetained(collector)
        defer { context.release() }
        try easy.set(CURLOPT_WRITEDATA, pointer: context.toOpaque(), "CURLOPT_WRITEDATA")
        try easy.set(CURLOPT_HEADERDATA, pointer: context.toOpaque(), "CURLOPT_HEADERDATA")
        let writeCode = ccurl_setopt_write_callback(easy.handle) { data, size, count, context in
            let collector = Unmanaged<ResponseCollector>.fromOpaque(context!).takeUnretainedValue()
            let length = size * count
            guard collector.body.count + length <= ResponseCollector.maxBody else { return 0 }
            if let data { collector.body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length) }
            return length
        }
        guard writeCode == CURLE_OK else {
            throw HTTPFailure(curlCode: Int(writeCode.rawValue), message: "setting CURLOPT_WRITEFUNCTION failed", requestSent: false)
        }
        let headerCode = ccurl_setopt_header_callback(easy.handle) { data, size, count, context in
            let collector = Unmanaged<ResponseCollector>.fromOpaque(context!).takeUnretainedValue()
            let length = size * count
            if let data {
                collector.header(UnsafeBufferPointer(start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length))
            }
            return length
        }
        guard headerCode == CURLE_OK else {
            throw HTTPFailure(curlCode: Int(headerCode.rawValue), message: "setting CURLOPT_HEADERFUNCTION failed", requestSent: false)
        }

        try easy.perform()
        let status = easy.infoLong(CURLINFO_RESPONSE_CODE) ?? 0
        return HTTPResponse(status: status, headers: collector.headers, body: collector.body)
    }
}

/// Gathers one response inside curl's callbacks (confined to the calling thread).
private final class ResponseCollector {
    /// Gateways answer in bytes; a larger body is an error, not something to buffer.
    static let maxBody = 1 << 20
    var body = Data()
    var headers: [String: String] = [:]

    /// Takes one raw header line as curl hands it over (`Name: value` and its CRLF). Read as
    /// bytes: header lines are ASCII, and Foundation's trimming cost more per request than the
    /// rest of the client's own work.
    func header(_ line: UnsafeBufferPointer<UInt8>) {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        var start = 0, end = line.count
        while start < end, isSpace(line[start]) { start += 1 }
        while end > start, isSpace(line[end - 1]) { end -= 1 }
        let trimmed = line[start..<end]
        // A new status line (after `100 Continue` or a redirect) starts a new header block.
        if trimmed.starts(with: "HTTP/".utf8) { headers.removeAll(); return }
        guard let colon = trimmed.firstIndex(of: UInt8(ascii: ":")) else { return }
        var valueStart = colon + 1
        while valueStart < end, isSpace(line[valueStart]) { valueStart += 1 }
        let name = String(decoding: line[start..<colon], as: UTF8.self).lowercased()
        headers[name] = String(decoding: line[valueStart..<end], as: UTF8.self)
    }
}

/// Moves an idle handle in and out of the pool's lock. The handle itself is not thread-safe;
/// the pool hands it to one borrower at a time, which is what makes this box safe to send.
private struct PooledHandle: @unchecked Sendable {
    private let easy: CurlEasy
    init(_ easy: CurlEasy) { self.easy = easy }
    func take() -> CurlEasy { easy }
}
