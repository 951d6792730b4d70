import Foundation
import OutboxEngine
import OutboxModel

/// Posts each message as JSON to a URL of the user's own (an in-house gateway, a chat bridge).
///
/// The body is `{id, uid, to, from, body, encoding, segments}`; the uid also travels as the
/// `Idempotency-Key` header, so a receiver can drop the duplicate of a retried request. Extra
/// headers (a bearer token) are given by environment variable and read per request, never
/// stored or logged.
public final class WebhookSink: Sink {
    public let url: String
    /// Header name → environment variable holding its value.
    let headersEnv: [String: String]
    let environment: [String: String]
    let client: HTTPClient

    public init(config: WebhookConfig, environment: [String: String] = ProcessInfo.processInfo.environment,
                timeoutSeconds: Double = 30) {
        url = config.url
        headersEnv = config.headersEnv
        self.environment = environment
        client = HTTPClient(timeoutSeconds: timeoutSeconds)
    }

    public var channel: Channel { .sms }
    public var name: String { "webhook" }
    public var destinationDescription: String { "webhook \(SMSURL.redacted(url))" }

    public func deliver(_ delivery: Delivery) throws(SinkError) -> DeliveryReceipt {
        guard case .sms(let sms) = delivery.content else {
            throw SinkError(.permanent, code: "wrong channel", "the webhook sink was handed a \(delivery.channel.rawValue) message")
        }
        let payload = SMSMessageJSON(delivery, sms, fromAlwaysPresent: true)
        let json: Data
        do { json = try JSONEncoder().encode(payload) } catch {
            throw SinkError(.permanent, code: "json", "cannot encode the message as JSON: \(error)")
        }
        var request = HTTPRequest.postJSON(url, json)
        request.headers.append(("Idempotency-Key", delivery.uid))
        for (header, variable) in headersEnv.sorted(by: { $0.key < $1.key }) {
            guard let value = environment[variable], !value.isEmpty else {
                // Every message would fail the same way: pause the sink instead of failing them.
                throw SinkError(.offline, code: "config",
                                "the environment variable \(variable) for the webhook header \(header) is not set")
            }
            request.headers.append((header, value))
        }
        let response: HTTPResponse
        do { response = try client.send(request) } catch { throw error.sinkError("the webhook") }
        guard response.isSuccess else { throw response.refusal("the webhook") }
        let remoteID = response.jsonObject?["id"].flatMap { $0 as? String ?? ($0 as? NSNumber)?.stringValue }
        return DeliveryReceipt(outcome: .sent, remoteID: remoteID, code: "http \(response.status)",
                               detail: HTTPResponse.snippet(response.text))
    }

    /// Any HTTP answer, even an error status, shows the receiver is up.
    public func probe() -> SinkProbe {
        do {
            _ = try client.send(.get(url))
            return .reachable(detail: destinationDescription)
        } catch {
            return .unreachable(error.sinkError("the webhook"))
        }
    }

    public func shutdown() { client.close() }
}
