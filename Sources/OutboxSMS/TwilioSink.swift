import Foundation
import OutboxEngine
import OutboxModel

/// Twilio's Programmable Messaging REST API, or anything that speaks it (base URL configurable).
///
/// `POST /2010-04-01/Accounts/{AccountSid}/Messages.json` with HTTP basic auth (account SID and
/// auth token). An accepted message is only queued at Twilio, so the result is `submitted` with
/// the message SID; `followUp` polls the message resource until Twilio reports a final status.
public final class TwilioSink: Sink {
    let baseURL: String
    let accountSID: String
    let authToken: SecretReference
    let from: String?
    let messagingServiceSID: String?
    /// Twilio has no client-reference field: when set, the uid travels as the `uid` query
    /// parameter of the `StatusCallback` URL, so callbacks and retried requests can be matched.
    let statusCallbackURL: String?
    let environment: [String: String]
    let client: HTTPClient

    public init(config: TwilioConfig, statusCallbackURL: String? = nil,
                environment: [String: String] = ProcessInfo.processInfo.environment, timeoutSeconds: Double = 30) {
        baseURL = SMSURL.trimmed(config.baseURL)
        accountSID = config.accountSID
        authToken = config.authToken
        from = config.from
        messagingServiceSID = config.messagingServiceSID
        self.statusCallbackURL = statusCallbackURL
        self.environment = environment
        client = HTTPClient(timeoutSeconds: timeoutSeconds)
    }

    public var channel: Channel { .sms }
    public var name: String { "twilio" }
    public var destinationDescription: String { "twilio \(SMSURL.redacted(baseURL)) account \(accountSID)" }

    var messagesURL: String { "\(baseURL)/2010-04-01/Accounts/\(FormEncoding.escape(accountSID))/Messages" }

    /// Error codes that name a number Twilio will never deliver to (invalid, unsubscribed, not
    /// a mobile number). Any 400 is permanent; these are the ones worth naming in the attempt.
    static let permanentNumberCodes: Set<Int> = [21211, 21610, 21614]

    public func deliver(_ delivery: Delivery) throws(SinkError) -> DeliveryReceipt {
        guard case .sms(let sms) = delivery.content else {
            throw SinkError(.permanent, code: "wrong channel", "the Twilio sink was handed a \(delivery.channel.rawValue) message")
        }
        var fields: [(String, String)] = [("To", sms.recipient)]
        if let sender = sms.sender {
            fields.append(("From", sender))
        } else if let messagingServiceSID {
            fields.append(("MessagingServiceSid", messagingServiceSID))
        } else if let from {
            fields.append(("From", from))
        } else {
            throw SinkError(.permanent, code: "no sender",
                            "no sender: give --from, or set sms.twilio.from or sms.twilio.messaging_service_sid")
        }
        fields.append(("Body", sms.body))
        if let statusCallbackURL {
            fields.append(("StatusCallback", SMSURL.appending(statusCallbackURL, query: "uid=" + FormEncoding.escape(delivery.uid))))
        }
        var request = HTTPRequest.postForm(messagesURL + ".json", fields)
        request.basicAuth = (accountSID, try token())
        let response = try send(request)
        let json = response.jsonObject
        guard response.status == 201 || response.status == 200 else {
            let refusal = response.refusal("Twilio")
            if refusal.errorClass == .permanent, let code = (json?["code"] as? NSNumber)?.intValue {
                let message = json?["message"] as? String ?? HTTPResponse.snippet(response.text)
                let why = Self.permanentNumberCodes.contains(code) ? "the number cannot receive this message" : "Twilio refused the message"
                throw SinkError(.permanent, code: "twilio \(code)", "\(why) (\(response.status)): \(message)")
            }
            throw response.refusal("Twilio")
        }
        guard let sid = json?["sid"] as? String else {
            // Twilio took it but we cannot follow it: retrying could send it twice.
            throw SinkError(.uncertain, code: "http \(response.status)", "Twilio accepted the message without a SID: \(HTTPResponse.snippet(response.text))")
        }
        let status = json?["status"] as? String ?? "queued"
        return DeliveryReceipt(outcome: .submitted, remoteID: sid, code: "http \(response.status)", detail: "twilio status \(status)")
    }

    /// Polls the message resource: `delivered` is final success; `undelivered`, `failed` and
    /// `canceled` are final failure with Twilio's error code; anything else is still moving.
    public func followUp(_ message: SubmittedMessage) -> FollowUp? {
        guard let sid = message.remoteID else { return nil }
        var request = HTTPRequest.get("\(messagesURL)/\(FormEncoding.escape(sid)).json")
        do { request.basicAuth = (accountSID, try token()) } catch { return nil }
        guard let response = try? client.send(request), response.isSuccess, let json = response.jsonObject,
              let status = json["status"] as? String else {
            return nil
        }
        let errorCode = (json["error_code"] as? NSNumber)?.intValue
        let errorMessage = json["error_message"] as? String
        switch status {
        case "delivered", "read":
            return FollowUp(outcome: .delivered, code: "twilio \(status)", detail: "Twilio reports the message \(status)")
        case "undelivered", "failed", "canceled":
            let code = errorCode.map { "twilio \(status) \($0)" } ?? "twilio \(status)"
            return FollowUp(outcome: .undelivered, code: code,
                            detail: "Twilio reports the message \(status)" + (errorMessage.map { ": \($0)" } ?? ""))
        default:
            return nil
        }
    }

    /// Any HTTP answer from the account resource shows Twilio is reachable; 401 means the
    /// token is wrong, which no retry will fix.
    public func probe() -> SinkProbe {
        var request = HTTPRequest.get("\(baseURL)/2010-04-01/Accounts/\(FormEncoding.escape(accountSID)).json")
        do {
            request.basicAuth = (accountSID, try token())
            let response = try send(request)
            if response.status == 401 || response.status == 403 {
                return .unreachable(SinkError(.offline, code: "http \(response.status)", "Twilio rejected the account SID or auth token"))
            }
            return .reachable(detail: destinationDescription)
        } catch {
            return .unreachable(error)
        }
    }

    public func shutdown() { client.close() }

    private func send(_ request: HTTPRequest) throws(SinkError) -> HTTPResponse {
        do { return try client.send(request) } catch { throw error.sinkError("Twilio") }
    }

    private func token() throws(SinkError) -> String {
        do throws(OutboxError) {
            guard let token = try authToken.resolve(environment: environment) else {
                throw .config("sms.twilio needs auth_token_env or auth_token_file")
            }
            return token
        } catch {
            throw SinkError(.offline, code: "config", error.message)
        }
    }
}
