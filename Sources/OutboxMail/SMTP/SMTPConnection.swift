import CCurl
import OutboxEngine
import OutboxModel

/// One SMTP connection: a curl easy handle configured for the server, kept open across messages,
/// and the state of the transfer in progress (the message stream curl reads from and the
/// transcript of commands and replies).
///
/// `@unchecked Sendable` because the sink's pool hands it between threads, but it is only ever
/// used by one thread at a time: taken from the pool, used for one delivery, given back.
final class SMTPConnection: @unchecked Sendable {
    private let curl: CurlEasy
    let transcript = SMTPTranscript()
    /// Messages accepted over this handle; it is closed at `max_messages_per_connection`.
    private(set) var messagesSent = 0
    private var stream: (any ByteStream)?
    private var readError: (any Error)?
    private var dataFinished = false

    /// What one transfer came to, for classification.
    struct Transfer {
        var code: CURLcode
        var errorText: String
        var replies: [SMTPReply]
        var finalReply: SMTPReply?
        /// The whole message was handed to libcurl (the end-of-data mark followed).
        var dataFinished: Bool
        var readError: (any Error)?
        /// The transfer ran over a connection kept from an earlier message.
        var reused: Bool
    }

    /// Opens nothing yet: the connection is made by the first transfer. `connectOnly` makes a
    /// probe handle (connect, greeting, EHLO, STARTTLS, AUTH, then stop).
    init(_ settings: SMTPSettings, password: String?, connectOnly: Bool = false) throws(CurlError) {
        curl = try CurlEasy()
        do {
            try curl.set(CURLOPT_URL, string: settings.url)
            try curl.set(CURLOPT_USE_SSL, Int(settings.tlsLevel.rawValue))
            if let caFile = settings.caFile { try curl.set(CURLOPT_CAINFO, string: caFile) }
            if settings.insecureSkipVerify {
                try curl.set(CURLOPT_SSL_VERIFYPEER, false)
                try curl.set(CURLOPT_SSL_VERIFYHOST, 0)
            }
            if let username = settings.username {
                try curl.set(CURLOPT_USERNAME, string: username)
                try curl.set(CURLOPT_PASSWORD, string: password ?? "")
            }
            try curl.set(CURLOPT_CONNECTTIMEOUT_MS, Int(settings.connectTimeoutSeconds * 1000))
            try curl.set(CURLOPT_TIMEOUT_MS, Int(settings.timeoutSeconds * 1000))
            try curl.set(CURLOPT_TCP_KEEPALIVE, true)
            let context = Unmanaged.passUnretained(self).toOpaque()
            try curl.set(CURLOPT_VERBOSE, true)
            try curl.setDebugFunction(smtpDebugCallback)
            try curl.set(CURLOPT_DEBUGDATA, pointer: context)
            if connectOnly {
                try curl.set(CURLOPT_CONNECT_ONLY, 1)
            } else {
                try curl.set(CURLOPT_UPLOAD, true)
                try curl.setReadFunction(smtpReadCallback)
                try curl.set(CURLOPT_READDATA, pointer: context)
                // One refused recipient must not sink the others (RFC 5321 allows partial acceptance).
                try curl.set(CURLOPT_MAIL_RCPT_ALLLOWFAILS, true)
            }
        } catch {
            curl.close()
            throw error
        }
    }

    /// Sends one message over this connection (opening it if needed). Blocking.
    func send(_ message: ComposedMessage, stream: any ByteStream) throws(CurlError) -> Transfer {
        transcript.reset()
        dataFinished = false
        readError = nil
        self.stream = stream
        defer { self.stream = nil }

        var list: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(list) }
        for recipient in message.recipients {
            guard let longer = curl_slist_append(list, "<\(recipient)>") else {
                throw CurlError(code: CURLE_OUT_OF_MEMORY, option: "curl_slist_append")
            }
            list = longer
        }
        try curl.set(CURLOPT_MAIL_FROM, string: "<\(message.envelopeSender)>")
        try curl.set(CURLOPT_MAIL_RCPT, list: list)
        try curl.set(CURLOPT_INFILESIZE_LARGE, offset: Int64(message.size))
        let code = curl.perform()
        // The list is freed below: libcurl must not keep a pointer to it.
        try curl.set(CURLOPT_MAIL_RCPT, list: nil)
        if code == CURLE_OK { messagesSent += 1 }
        return transfer(code)
    }

    /// Connects, greets, negotiates TLS and logs in, without sending a message.
    func connect() -> Transfer {
        transcript.reset()
        return transfer(curl.perform())
    }

    func close() { curl.close() }

    private func transfer(_ code: CURLcode) -> Transfer {
        Transfer(code: code, errorText: curl.errorText(code), replies: transcript.replies,
                 finalReply: transcript.finalReply, dataFinished: dataFinished, readError: readError,
                 reused: curl.info(CURLINFO_NUM_CONNECTS) == 0)
    }

    // MARK: - Callbacks

    /// Fills curl's upload buffer from the message stream.
    fileprivate func fill(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let stream else { return 0 }
        do {
            let count = try stream.read(into: buffer)
            if count == 0 { dataFinished = true }
            return count
        } catch {
            readError = error
            return Self.readAbort
        }
    }

    /// `CURL_READFUNC_ABORT`, a macro that does not import.
    static let readAbort = 0x1000_0000

    fileprivate func debug(_ type: curl_infotype, _ bytes: UnsafeRawBufferPointer) {
        if type == CURLINFO_HEADER_OUT { transcript.sent(String(decoding: bytes, as: UTF8.self)) }
        else if type == CURLINFO_HEADER_IN { transcript.received(bytes) }
    }
}

/// libcurl's read callback: the context is the `SMTPConnection` doing the transfer.
private let smtpReadCallback: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
    buffer, size, count, context in
    guard let buffer, let context else { return SMTPConnection.readAbort }
    let connection = Unmanaged<SMTPConnection>.fromOpaque(context).takeUnretainedValue()
    return connection.fill(UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
}

/// libcurl's debug callback: sees the SMTP commands and replies (https://curl.se/libcurl/c/CURLOPT_DEBUGFUNCTION.html).
private let smtpDebugCallback: @convention(c) (UnsafeMutableRawPointer?, curl_infotype, UnsafeMutablePointer<CChar>?, Int, UnsafeMutableRawPointer?) -> Int32 = {
    _, type, data, size, context in
    guard let data, let context, type == CURLINFO_HEADER_OUT || type == CURLINFO_HEADER_IN else { return 0 }
    let connection = Unmanaged<SMTPConnection>.fromOpaque(context).takeUnretainedValue()
    connection.debug(type, UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
