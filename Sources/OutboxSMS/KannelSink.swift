import Foundation
import OutboxEngine
import OutboxModel
import Synchronization

/// Kannel's sendsms HTTP interface (smsbox), with delivery reports through `dlr-url`.
///
/// Each message is one GET with `username`, `password`, `to`, `text`, `from`, `charset=UTF-8`,
/// and `coding=2` when the text needs UCS-2 (Kannel then converts the UTF-8 text itself). The
/// uid is carried twice — in `meta-data` and in the `dlr-url` — so a report, or a retried
/// request, can be matched to its message.
///
/// Results: `202 0: Accepted` is `sent`, or `submitted` when delivery reports are configured
/// (the report decides); `202 3: Queued for later delivery` is `submitted` likewise; 503 and
/// other 5xx are `transient`; other 4xx (bad credentials, missing number) `permanent`; a
/// refused connection `offline`.
public final class KannelSink: Sink {
    let url: String
    let username: String?
    let password: SecretReference
    let from: String?
    /// `host:port` from `dlr_listen`; `nil` means no delivery reports are asked for.
    let dlrListen: (host: String, port: UInt16)?
    let environment: [String: String]
    let client: HTTPClient
    private let listener = Mutex<DLRListener?>(nil)

    /// Kannel `dlr-mask`: 1 delivered, 2 undelivered, 4 buffered, 8 SMSC accepted, 16 SMSC rejected.
    static let dlrMask = 31

    public init(config: KannelConfig, environment: [String: String] = ProcessInfo.processInfo.environment,
                timeoutSeconds: Double = 30) throws(OutboxError) {
        url = config.url
        username = config.username
        password = config.password
        from = config.from
        if let listen = config.dlrListen {
            guard let colon = listen.lastIndex(of: ":"), let port = UInt16(listen[listen.index(after: colon)...]),
                  !listen[..<colon].isEmpty else {
                throw .config("sms.kannel.dlr_listen must be host:port, e.g. 127.0.0.1:8090 (got '\(listen)')")
            }
            dlrListen = (String(listen[..<colon]), port)
        } else {
            dlrListen = nil
        }
        self.environment = environment
        client = HTTPClient(timeoutSeconds: timeoutSeconds)
    }

    public var channel: Channel { .sms }
    public var name: String { "kannel" }
    public var destinationDescription: String {
        "kannel \(SMSURL.redacted(url))" + (dlrListen.map { ", delivery reports on \($0.host):\($0.port)" } ?? "")
    }

    /// Where Kannel should call back: the running listener's address (it may have been given
    /// port 0), else the configured one.
    var reportAddress: (host: String, port: UInt16)? {
        if let running = listener.withLock({ $0.map { ($0.host, $0.port) } }) { return running }
        return dlrListen
    }

    public func deliver(_ delivery: Delivery) throws(SinkError) -> DeliveryReceipt {
        guard case .sms(let sms) = delivery.content else {
            throw SinkError(.permanent, code: "wrong channel", "the Kannel sink was handed a \(delivery.channel.rawValue) message")
        }
        var fields: [(String, String)] = []
        if let username { fields.append(("username", username)) }
        if let secret = try resolvedPassword() { fields.append(("password", secret)) }
        fields.append(("to", sms.recipient))
        if let sender = sms.sender ?? from { fields.append(("from", sender)) }
        fields.append(("text", sms.body))
        fields.append(("charset", "UTF-8"))
        if sms.encoding == .ucs2 { fields.append(("coding", "2")) }
        fields.append(("meta-data", "?outbox?uid=" + FormEncoding.escape(delivery.uid)))
        let wantsReports = reportAddress != nil
        if let address = reportAddress {
            fields.append(("dlr-mask", String(Self.dlrMask)))
            fields.append(("dlr-url", Self.dlrURL(host: address.host, port: address.port, uid: delivery.uid)))
        }
        // The query holds the password: the URL is never logged, only `destinationDescription`.
        let request = HTTPRequest.get(SMSURL.appending(url, query: FormEncoding.encode(fields)))
        let response: HTTPResponse
        do { response = try client.send(request) } catch { throw error.sinkError("Kannel") }
        return try Self.receipt(for: response, wantsReports: wantsReports)
    }

    /// Maps a sendsms answer to a receipt or a classified error.
    static func receipt(for response: HTTPResponse, wantsReports: Bool) throws(SinkError) -> DeliveryReceipt {
        let text = response.text.trimmingCharacters(in: .whitespacesAndNewlines)
        let kannelStatus = text.prefix { $0.isNumber }
        let code = "http \(response.status)" + (kannelStatus.isEmpty ? "" : " kannel \(kannelStatus)")
        guard response.isSuccess else { throw response.refusal("Kannel", code: code) }
        switch kannelStatus {
        case "0", "3":
            // Kannel returns no message id on sendsms; the uid in dlr-url does the matching.
            let outcome: DeliveryReceipt.Outcome = wantsReports ? .submitted : .sent
            return DeliveryReceipt(outcome: outcome, remoteID: nil, code: code, detail: text)
        default:
            // A 2xx we do not know: Kannel has the message, we cannot tell what it will do.
            throw SinkError(.uncertain, code: code, "Kannel answered \(response.status) with an unknown status: \(HTTPResponse.snippet(text))")
        }
    }

    /// The callback URL, with Kannel's escapes: `%d` report type, `%A` SMSC reply, `%T` time.
    static func dlrURL(host: String, port: UInt16, uid: String) -> String {
        "http://\(host):\(port)/dlr?uid=\(FormEncoding.escape(uid))&type=%d&answer=%A&ts=%T"
    }

    /// Turns one callback's parameters into a report; intermediate types (buffered, SMSC
    /// accepted) are not final and give `nil`.
    static func report(from query: [String: String]) -> DeliveryReport? {
        guard let uid = query["uid"], !uid.isEmpty, let type = query["type"].flatMap({ Int($0) }) else { return nil }
        let answer = query["answer"].flatMap { $0.isEmpty ? nil : $0 }
        let detail = answer.map { "SMSC: \($0)" }
        switch type {
        case 1: return DeliveryReport(uid: uid, outcome: .delivered, code: "kannel dlr 1", detail: detail ?? "delivered to the phone")
        case 2: return DeliveryReport(uid: uid, outcome: .undelivered, code: "kannel dlr 2", detail: detail ?? "not delivered to the phone")
        case 16: return DeliveryReport(uid: uid, outcome: .undelivered, code: "kannel dlr 16", detail: detail ?? "rejected by the SMSC")
        default: return nil
        }
    }

    public func startReceivingReports(_ report: @escaping @Sendable (DeliveryReport) -> Void) throws(SinkError) {
        guard let dlrListen else { return }
        try listener.withLock { (running: inout DLRListener?) throws(SinkError) in
            guard running == nil else { return }
            running = try DLRListener(host: dlrListen.host, port: dlrListen.port) { query in
                if let parsed = Self.report(from: query) {
                    report(parsed)
                } else {
                    Log.shared.debug("kannel dlr", channel: .sms, ["uid": query["uid"] ?? "?", "type": query["type"] ?? "?"])
                }
            }
        }
    }

    /// Kannel answers any request on the sendsms port (403 without credentials): an HTTP answer
    /// means reachable, a refused connection means offline.
    public func probe() -> SinkProbe {
        do {
            _ = try client.send(.get(url))
            return .reachable(detail: destinationDescription)
        } catch {
            return .unreachable(error.sinkError("Kannel"))
        }
    }

    public func shutdown() {
        let running = listener.withLock { (value: inout DLRListener?) -> DLRListener? in
            defer { value = nil }
            return value
        }
        running?.stop()
        client.close()
    }

    private func resolvedPassword() throws(SinkError) -> String? {
        do { return try password.resolve(environment: environment) } catch {
            throw SinkError(.offline, code: "config", error.message)
        }
    }
}
