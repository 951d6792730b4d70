import Foundation
import OutboxEngine
import OutboxModel
@testable import OutboxSMS
import OutboxTestSupport
import Testing

/// Against the Twilio-compatible python server in `Tests/Fixtures/sms`.
@Suite struct TwilioSinkTests {
    static let sid = "ACtest0001"
    static let token = "twilio-test-token"

    func makeSink(_ server: HTTPRecorder, baseURL: String? = nil, token: String = TwilioSinkTests.token,
                  callback: String? = nil) -> TwilioSink {
        var config = TwilioConfig(accountSID: Self.sid)
        config.baseURL = baseURL ?? server.baseURL + "/"
        config.authToken = SecretReference(environmentVariable: "TEST_TWILIO_TOKEN")
        config.from = "+15550001111"
        return TwilioSink(config: config, statusCallbackURL: callback, environment: ["TEST_TWILIO_TOKEN": token], timeoutSeconds: 10)
    }

    func expectError(_ body: () throws -> Void) -> SinkError? {
        do { try body(); Issue.record("expected an error"); return nil } catch {
            #expect(error is SinkError)
            return error as? SinkError
        }
    }

    @Test func acceptedIsSubmittedWithTheSIDAndPollsToDelivered() throws {
        let server = try HTTPRecorder(mode: .twilio, auth: "\(Self.sid):\(Self.token)")
        defer { server.stop() }
        let sink = makeSink(server, callback: "https://hooks.example.org/twilio")
        defer { sink.shutdown() }
        let delivery = smsDelivery(id: 5, to: "+15005550001", body: "Grüße + 日本 & more")
        let receipt = try sink.deliver(delivery)
        #expect(receipt.outcome == .submitted)
        #expect(receipt.code == "http 201")
        let sidValue = try #require(receipt.remoteID)
        #expect(sidValue.hasPrefix("SM"))

        let request = try #require(server.requests.last)
        #expect(request.method == "POST")
        #expect(request.path == "/2010-04-01/Accounts/\(Self.sid)/Messages.json")
        #expect(request.headers["content-type"] == "application/x-www-form-urlencoded")
        #expect(request.form["To"] == "+15005550001")
        #expect(request.form["From"] == "+15550001111")
        #expect(request.form["Body"] == "Grüße + 日本 & more")
        #expect(request.form["StatusCallback"] == "https://hooks.example.org/twilio?uid=\(delivery.uid)")

        let submitted = SubmittedMessage(messageID: 5, uid: delivery.uid, destination: nil, remoteID: sidValue, submittedAt: 0)
        #expect(sink.followUp(submitted) == nil)  // "sending"
        let final = sink.followUp(submitted)
        #expect(final?.outcome == .delivered)
        #expect(server.requests.last?.path == "/2010-04-01/Accounts/\(Self.sid)/Messages/\(sidValue).json")
    }

    @Test func pollingReachesUndeliveredWithTheErrorCode() throws {
        let server = try HTTPRecorder(mode: .twilio, auth: "\(Self.sid):\(Self.token)")
        defer { server.stop() }
        let sink = makeSink(server)
        let receipt = try sink.deliver(smsDelivery(to: "+15005550002", body: "to a dead phone"))
        let submitted = SubmittedMessage(messageID: 1, uid: "u", destination: nil, remoteID: receipt.remoteID, submittedAt: 0)
        var result: FollowUp?
        #expect(waitUntil(5) { result = sink.followUp(submitted); return result != nil })
        #expect(result?.outcome == .undelivered)
        #expect(result?.code == "twilio undelivered 30003")
    }

    @Test func rateLimitedIsTransientWithRetryAfter() throws {
        let server = try HTTPRecorder(mode: .twilio, auth: "\(Self.sid):\(Self.token)")
        defer { server.stop() }
        let sink = makeSink(server)
        let error = expectError { _ = try sink.deliver(smsDelivery(to: "+15005550429", body: "x")) }
        #expect(error?.errorClass == .transient)
        #expect(error?.code == "http 429")
        #expect(error?.retryAfterSeconds == 7)
        let unavailable = expectError { _ = try sink.deliver(smsDelivery(to: "+15005550500", body: "x")) }
        #expect(unavailable?.errorClass == .transient)
        #expect(unavailable?.code == "http 503")
    }

    @Test func anInvalidNumberIsPermanentWithTwiliosCode() throws {
        let server = try HTTPRecorder(mode: .twilio, auth: "\(Self.sid):\(Self.token)")
        defer { server.stop() }
        let sink = makeSink(server)
        let error = expectError { _ = try sink.deliver(smsDelivery(to: "+15005550009", body: "x")) }
        #expect(error?.errorClass == .permanent)
        #expect(error?.code == "twilio 21211")
    }

    @Test func aWrongTokenIsPermanentAndNeverShown() throws {
        let server = try HTTPRecorder(mode: .twilio, auth: "\(Self.sid):\(Self.token)")
        defer { server.stop() }
        let sink = makeSink(server, token: "not-the-token")
        let error = expectError { _ = try sink.deliver(smsDelivery(to: "+15005550001", body: "x")) }
        #expect(error?.errorClass == .permanent)
        #expect(error?.code == "twilio 20003")
        #expect(error?.description.contains("not-the-token") == false)
        guard case .unreachable = sink.probe() else { Issue.record("probe should report the bad token"); return }
    }

    @Test func connectionRefusedIsOffline() throws {
        let port = LoopbackPort.free()
        var config = TwilioConfig(accountSID: Self.sid)
        config.baseURL = "http://127.0.0.1:\(port)"
        config.authToken = SecretReference(environmentVariable: "T")
        config.from = "+15550001111"
        let sink = TwilioSink(config: config, environment: ["T": "x"])
        let error = expectError { _ = try sink.deliver(smsDelivery(body: "x")) }
        #expect(error?.errorClass == .offline)
        #expect(error?.code == "curl 7")
    }
}
