import CCurl

/// One libcurl easy handle (https://curl.se/libcurl/c/libcurl-easy.html). Options go through the
/// typed wrappers in `shim.h`; every return code is checked. The handle keeps its connection
/// open between transfers, which is how SMTP connections are reused.
///
/// Not thread-safe: used by one thread at a time. `close()` must be called (it sends QUIT on an
/// open SMTP connection); `deinit` only checks that it was.
final class CurlEasy {
    private(set) var handle: UnsafeMutableRawPointer?
    /// `CURLOPT_ERRORBUFFER`: libcurl's own words for the last failure.
    private let errorBuffer: UnsafeMutablePointer<CChar>

    init() throws(CurlError) {
        guard let handle = curl_easy_init() else { throw CurlError(code: CURLE_FAILED_INIT, option: "curl_easy_init") }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        do {
            try set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
            // Worker threads: no SIGALRM-based DNS timeouts.
            try set(CURLOPT_NOSIGNAL, 1)
        } catch {
            close()
            throw error
        }
    }

    deinit {
        assert(handle == nil, "CurlEasy released without close()")
        errorBuffer.deallocate()
    }

    func close() {
        if let handle { curl_easy_cleanup(handle) }
        handle = nil
    }

    func set(_ option: CURLoption, _ value: Int) throws(CurlError) {
        try check(ccurl_setopt_long(handle, option, value), option)
    }

    func set(_ option: CURLoption, _ value: Bool) throws(CurlError) {
        try set(option, value ? 1 : 0)
    }

    func set(_ option: CURLoption, string value: String?) throws(CurlError) {
        // libcurl copies string options, so the temporary C string may go away after the call.
        let code = if let value { value.withCString { ccurl_setopt_string(handle, option, $0) } }
                   else { ccurl_setopt_string(handle, option, nil) }
        try check(code, option)
    }

    func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?) throws(CurlError) {
        try check(ccurl_setopt_pointer(handle, option, value), option)
    }

    func set(_ option: CURLoption, list value: UnsafeMutablePointer<curl_slist>?) throws(CurlError) {
        try check(ccurl_setopt_slist(handle, option, value), option)
    }

    func set(_ option: CURLoption, offset value: Int64) throws(CurlError) {
        try check(ccurl_setopt_offset(handle, option, curl_off_t(value)), option)
    }

    func setReadFunction(_ function: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int) throws(CurlError) {
        try check(ccurl_setopt_read_callback(handle, function), CURLOPT_READFUNCTION)
    }

    func setDebugFunction(_ function: @convention(c) (UnsafeMutableRawPointer?, curl_infotype, UnsafeMutablePointer<CChar>?, Int, UnsafeMutableRawPointer?) -> Int32) throws(CurlError) {
        try check(ccurl_setopt_debug_callback(handle, function), CURLOPT_DEBUGFUNCTION)
    }

    /// Runs the transfer; returns libcurl's result (the caller classifies it).
    func perform() -> CURLcode {
        errorBuffer[0] = 0
        return curl_easy_perform(handle)
    }

    func info(_ info: CURLINFO) -> Int {
        var value = 0
        return ccurl_getinfo_long(handle, info, &value) == CURLE_OK ? value : 0
    }

    /// The error buffer's text, or libcurl's generic text for `code`.
    func errorText(_ code: CURLcode) -> String {
        let text = String(cString: errorBuffer)
        return text.isEmpty ? String(cString: curl_easy_strerror(code)) : text
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws(CurlError) {
        guard code == CURLE_OK else { throw CurlError(code: code, option: "option \(option.rawValue)") }
    }
}

@available(*, unavailable) extension CurlEasy: Sendable {}

/// A libcurl call that failed before any transfer (an option libcurl refused).
struct CurlError: Error, CustomStringConvertible {
    let code: CURLcode
    let option: String
    var description: String { "libcurl refused \(option): \(String(cString: curl_easy_strerror(code))) (\(code.rawValue))" }
}
