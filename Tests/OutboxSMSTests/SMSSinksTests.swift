import OutboxEngine
import OutboxModel
@testable import OutboxSMS
import Testing

@Suite struct SMSSinksTests {
    @Test func theDefaultIsTheDirectory() throws {
        let sink = try SMSSinks.make(config: SMSConfig())
        #expect(sink.name == "directory")
        #expect(sink.destinationDescription.hasSuffix("— no SMS gateway configured"))
    }

    @Test func eachGatewayIsBuiltFromItsSection() throws {
        var config = SMSConfig()
        config.sink = .kannel
        config.kannel = KannelConfig(url: "http://127.0.0.1:13013/cgi-bin/sendsms")
        #expect(try SMSSinks.make(config: config).name == "kannel")
        config.sink = .twilio
        var twilio = TwilioConfig(accountSID: "AC1")
        twilio.authToken = SecretReference(environmentVariable: "X")
        twilio.from = "+15550001111"
        config.twilio = twilio
        #expect(try SMSSinks.make(config: config).name == "twilio")
        config.sink = .webhook
        config.webhook = WebhookConfig(url: "https://user:pw@sms.example.org/send?token=abc")
        let webhook = try SMSSinks.make(config: config)
        #expect(webhook.name == "webhook")
        #expect(webhook.destinationDescription == "webhook https://sms.example.org/send")
    }

    @Test func unusableSectionsAreConfigErrors() {
        var config = SMSConfig()
        config.sink = .kannel
        #expect(throws: OutboxError.self) { try SMSSinks.make(config: config) }
        config.kannel = KannelConfig(url: "127.0.0.1:13013")
        #expect(throws: OutboxError.self) { try SMSSinks.make(config: config) }
        config.sink = .twilio
        config.twilio = TwilioConfig(accountSID: "AC1")
        #expect(throws: OutboxError.self) { try SMSSinks.make(config: config) }  // no token reference
        do { _ = try SMSSinks.make(config: config) } catch { #expect(error.code == .config) }
    }
}

@Suite struct FormEncodingTests {
    @Test func escapesEverythingButUnreserved() {
        #expect(FormEncoding.escape("+49 151/ä&=%") == "%2B49%20151%2F%C3%A4%26%3D%25")
        #expect(FormEncoding.encode([("a", "1"), ("b c", "€")]) == "a=1&b%20c=%E2%82%AC")
    }

    @Test func parsesQueriesBack() {
        let parsed = FormEncoding.parseQuery("uid=abc-1&type=1&answer=ACK%2F&x=a+b&bad=%zz&empty")
        #expect(parsed == ["uid": "abc-1", "type": "1", "answer": "ACK/", "x": "a b", "bad": "%zz", "empty": ""])
    }
}
