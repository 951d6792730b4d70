import Foundation
import OutboxEngine
import OutboxModel
@testable import OutboxSMS
import OutboxTestSupport
import Testing

/// Against the recording python server in `Tests/Fixtures/sms`.
@Suite struct WebhookSinkTests {
    func makeSink(_ server: HTTPRecorder, environment: [String: String] = ["TEST_WEBHOOK_AUTH": "Bearer s3cret"]) -> WebhookSink {
        var config = WebhookConfig(url: server.baseURL + "/send")
        config.headersEnv = ["Authorization": "TEST_WEBHOOK_AUTH"]
        return WebhookSink(config: config, environment: environment, timeoutSeconds: 10)
    }

    @Test func postsJSONWithHeadersAndTheIdempotencyKey() throws {
        let server = try HTTPRecorder(mode: .webhook)
        defer { server.stop() }
        let sink = makeSink(server)
        defer { sink.shutdown() }
        let delivery = smsDelivery(id: 9, to: "+4915112345678", from: "Outbox", body: "Hallo {Welt} 😀")
        let receipt = try sink.deliver(delivery)
        #expect(receipt.outcome == .sent)
        #expect(receipt.remoteID == "wh-1")
        #expect(receipt.code == "http 200")
        let request = try #require(server.requests.last)
        #expect(request.method == "POST")
        #expect(request.path == "/send")
        #expect(request.headers["authorization"] == "Bearer s3cret")
        #expect(request.headers["idempotency-key"] == delivery.uid)
        #expect(request.headers["content-type"] == "application/json")
        let json = try #require(request.json)
        #expect(json["id"] as? Int == 9)
        #expect(json["uid"] as? String == delivery.uid)
        #expect(json["to"] as? String == "+4915112345678")
        #expect(json["from"] as? String == "Outbox")
        #expect(json["body"] as? String == "Hallo {Welt} 😀")
        #expect(json["encoding"] as? String == "ucs2")
        #expect(json["segments"] as? Int == 1)

        // A second message reuses the handle (and its connection) and gets its own id.
        #expect(try sink.deliver(smsDelivery(body: "again")).remoteID == "wh-2")
    }

    @Test func refusalsAreClassified() throws {
        let server = try HTTPRecorder(mode: .webhook)
        defer { server.stop() }
        let sink = makeSink(server)
        do { _ = try sink.deliver(smsDelivery(to: "+15005550503", body: "x")); Issue.record("expected 503") } catch {
            #expect(error.errorClass == .transient)
            #expect(error.retryAfterSeconds == 3)
        }
        do { _ = try sink.deliver(smsDelivery(to: "+15005550422", body: "x")); Issue.record("expected 422") } catch {
            #expect(error.errorClass == .permanent)
            #expect(error.code == "http 422")
        }
    }

    @Test func aMissingHeaderVariablePausesTheSink() throws {
        let server = try HTTPRecorder(mode: .webhook)
        defer { server.stop() }
        let sink = makeSink(server, environment: [:])
        do { _ = try sink.deliver(smsDelivery(body: "x")); Issue.record("expected offline") } catch {
            #expect(error.errorClass == .offline)
            #expect(error.detail.contains("TEST_WEBHOOK_AUTH"))
        }
        #expect(server.requests.isEmpty)
    }
}
