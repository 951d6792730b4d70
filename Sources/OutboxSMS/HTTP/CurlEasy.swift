import CCurl
import OutboxEngine

/// One libcurl easy handle: keeps its connection cache between requests, so a sink that sends
/// many messages to one gateway reuses its TCP (and TLS) connection.
///
/// Not thread-safe: a handle is used by one request at a time, which `HTTPClient`'s pool
/// guarantees. See https://curl.se/libcurl/c/libcurl-easy.html
final class CurlEasy {
    let handle: UnsafeMutableRawPointer
    /// `CURLOPT_ERRORBUFFER`: libcurl's own wording of the last failure, kept for the detail.
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// `curl_global_init` must run once before any handle exists and is not thread-safe.
    private static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    init() throws(HTTPFailure) {
        guard Self.globalInit == CURLE_OK else {
            throw HTTPFailure(curlCode: Int(Self.globalInit.rawValue), message: "curl_global_init failed", requestSent: false)
        }
        guard let handle = curl_easy_init() else {
            throw HTTPFailure(curlCode: Int(CURLE_FAILED_INIT.rawValue), message: "curl_easy_init failed", requestSent: false)
        }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Forgets the previous request's options; live connections stay cached.
    func reset() throws(HTTPFailure) {
        curl_easy_reset(handle)
        errorBuffer[0] = 0
        try check(ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), "CURLOPT_ERRORBUFFER")
    }

    func set(_ option: CURLoption, _ value: Int, _ name: StaticString) throws(HTTPFailure) {
        try check(ccurl_setopt_long(handle, option, value), name)
    }

    func set(_ option: CURLoption, _ value: String, _ name: StaticString) throws(HTTPFailure) {
        // libcurl copies string options (since 7.17), so the temporary C string may go.
        try check(value.withCString { ccurl_setopt_string(handle, option, $0) }, name)
    }

    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?, _ name: StaticString) throws(HTTPFailure) {
        try check(ccurl_setopt_pointer(handle, option, pointer), name)
    }

    /// For use inside a `withUnsafe…` closure that cannot throw a typed error: returns the code.
    func setPointerResult(_ option: CURLoption, _ pointer: UnsafeMutableRawPointer?) -> CURLcode {
        ccurl_setopt_pointer(handle, option, pointer)
    }

    func set(_ option: CURLoption, offset: Int64, _ name: StaticString) throws(HTTPFailure) {
        try check(ccurl_setopt_offset(handle, option, curl_off_t(offset)), name)
    }

    func set(headers: UnsafeMutablePointer<curl_slist>?) throws(HTTPFailure) {
        try check(ccurl_setopt_slist(handle, CURLOPT_HTTPHEADER, headers), "CURLOPT_HTTPHEADER")
    }

    func infoLong(_ info: CURLINFO) -> Int? {
        var value = 0
        return ccurl_getinfo_long(handle, info, &value) == CURLE_OK ? value : nil
    }

    /// Runs the configured transfer; a failure carries libcurl's code and wording.
    func perform() throws(HTTPFailure) {
        let code = curl_easy_perform(handle)
        guard code == CURLE_OK else {
            let sent = (infoLong(CURLINFO_REQUEST_SIZE) ?? 0) > 0
            throw HTTPFailure(curlCode: Int(code.rawValue), message: lastErrorMessage(code), requestSent: sent)
        }
    }

    func lastErrorMessage(_ code: CURLcode) -> String {
        let own = String(cString: errorBuffer)
        return own.isEmpty ? String(cString: curl_easy_strerror(code)) : own
    }

    private func check(_ code: CURLcode, _ name: StaticString) throws(HTTPFailure) { try code.check(name) }
}

extension CURLcode {
    /// Throws unless `CURLE_OK`, naming the option that was being set.
    func check(_ name: StaticString) throws(HTTPFailure) {
        guard self == CURLE_OK else {
            throw HTTPFailure(curlCode: Int(rawValue), message: "setting \(name): \(String(cString: curl_easy_strerror(self)))",
                              requestSent: false)
        }
    }
}

@available(*, unavailable)
extension CurlEasy: Sendable {}
