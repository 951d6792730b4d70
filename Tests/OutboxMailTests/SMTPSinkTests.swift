import Foundation
import OutboxEngine
import OutboxModel
import OutboxTestSupport
import Testing
@testable import OutboxMail

/// Shared helpers for the SMTP tests.
enum SMTPTest {
    static let composer = MIMEComposer(defaultSender: "Outbox <outbox@example.org>")

    static func sink(_ url: String, _ configure: (inout SMTPConfig) -> Void = { _ in }) throws -> SMTPSink {
        var config = SMTPConfig(url: url)
        config.startTLS = .off
        config.connectTimeoutSeconds = 5
        config.timeoutSeconds = 20
        configure(&config)
        return try SMTPSink(config: config, composer: composer)
    }

    /// The `SinkError` a delivery threw, or nil when it succeeded.
    static func error(_ body: () throws -> DeliveryReceipt) -> SinkError? {
        do { _ = try body(); return nil } catch { return error as? SinkError }
    }

    /// The error of delivering the rich test mail to a smtp-sink started with `flags` (its fault
    /// injection), or nil when it went through.
    static func errorFromSink(_ flags: [String]) throws -> SinkError? {
        let server = try SMTPSinkServer(flags)
        defer { server.stop() }
        let sink = try sink(server.url)
        defer { sink.shutdown() }
        return error { try sink.deliver(TestMail.delivery(TestMail.rich)) }
    }

    /// A password file in a fresh directory, as `password_file` names it.
    static func passwordFile(_ password: String) throws -> SecretReference {
        let path = try SMTPFixtures.temporaryDirectory("secret") + "/password"
        try Data((password + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return SecretReference(file: path)
    }
}

@Suite("SMTP sink against aiosmtpd") struct SMTPSinkAiosmtpdTests {
    @Test func plainDeliveryIsWhatTheDirectorySinkWrites() throws {
        let server = try SMTPTestServer()
        defer { server.stop() }
        let sink = try SMTPTest.sink(server.url)
        defer { sink.shutdown() }
        let pdf = TestMail.bytes(250_000, seed: 7)
        let delivery = TestMail.delivery(TestMail.rich, attachments: [("report.pdf", "application/pdf", pdf),
                                                                      ("日本語の資料.txt", "text/plain", Array("メモ".utf8))])
        let receipt = try sink.deliver(delivery)
        #expect(receipt.outcome == .sent)
        #expect(receipt.remoteID == "Q0001")
        #expect(receipt.code == "smtp 250 2.0.0")
        #expect(receipt.detail == "250 2.0.0 Ok: queued as Q0001")
        #expect(server.waitForMessages(1))
        let saved = try #require(server.messages.first)

        // Byte for byte what the directory sink writes.
        let expected = try SMTPTest.composer.compose(delivery).bytes(messageID: 1, files: delivery.files)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: saved))) == expected)

        let envelope = try server.envelope(of: saved)
        #expect(envelope.from == "taro@example.org")
        #expect(envelope.recipients == ["ada@example.org", "bob@example.net", "john@example.com", "hidden@example.org"])
        let mail = try #require(try SMTPFixtures.inspect([saved]).first)
        #expect(mail.defects.isEmpty)
        #expect(mail.headers["Subject"] == TestMail.rich.subject)
        #expect(!mail.header_names.map { $0.lowercased() }.contains("bcc"))
        #expect(mail.parts.map(\.content_type) == ["text/plain", "text/html", "application/pdf", "text/plain"])
        #expect(mail.parts[2].sha256 == TestMail.sha256(pdf))
        #expect(mail.parts[3].filename == "日本語の資料.txt")
    }

    @Test func startTLSWithCAFileAndLogin() throws {
        let server = try SMTPTestServer(.init(startTLS: true, auth: ("outbox", "s3cret pass")))
        defer { server.stop() }
        let password = try SMTPTest.passwordFile("s3cret pass")
        let sink = try SMTPTest.sink(server.url) {
            $0.startTLS = .required
            $0.caFile = server.certificate
            $0.username = "outbox"
            $0.password = password
            $0.helo = "client.example.org"
        }
        defer { sink.shutdown() }
        #expect(!sink.destinationDescription.contains("s3cret"))
        guard case .reachable = sink.probe() else { Issue.record("probe: \(sink.probe())"); return }
        for uid in ["A1", "A2", "A3"] {
            let receipt = try sink.deliver(TestMail.delivery(TestMail.rich, uid: uid))
            #expect(receipt.outcome == .sent)
        }
        #expect(server.waitForMessages(3))
    }

    @Test func wrongPasswordIsPermanentAndProbeSaysAuthFailed() throws {
        let server = try SMTPTestServer(.init(startTLS: true, auth: ("outbox", "right")))
        defer { server.stop() }
        let password = try SMTPTest.passwordFile("wrong")
        let sink = try SMTPTest.sink(server.url) {
            $0.startTLS = .required
            $0.caFile = server.certificate
            $0.username = "outbox"
            $0.password = password
        }
        defer { sink.shutdown() }
        let error = try #require(SMTPTest.error { try sink.deliver(TestMail.delivery(TestMail.rich)) })
        #expect(error.errorClass == .permanent)
        #expect(error.code == "smtp 535 5.7.8")
        #expect(error.detail.contains("fix mail.smtp.username"))
        #expect(!error.detail.contains("wrong"))
        guard case .unreachable(let probeError) = sink.probe() else { Issue.record("probe said reachable"); return }
        #expect(probeError.code == "smtp 535 5.7.8")
        #expect(server.messages.isEmpty)
    }

    @Test func untrustedCertificateIsPermanentUnlessSkippingVerification() throws {
        let server = try SMTPTestServer(.init(startTLS: true))
        defer { server.stop() }
        let strict = try SMTPTest.sink(server.url) { $0.startTLS = .required }
        defer { strict.shutdown() }
        let error = try #require(SMTPTest.error { try strict.deliver(TestMail.delivery(TestMail.rich)) })
        #expect(error.errorClass == .permanent)
        #expect(error.code == "curl 60")
        guard case .unreachable = strict.probe() else { Issue.record("probe said reachable"); return }

        let logged = LogCapture()
        let insecure = try SMTPTest.sink(server.url) {
            $0.startTLS = .required
            $0.insecureSkipVerify = true
        }
        defer { insecure.shutdown() }
        #expect(logged.lines.contains { $0.contains("smtp-insecure-skip-verify") })
        logged.stop()
        #expect(try insecure.deliver(TestMail.delivery(TestMail.rich)).outcome == .sent)
    }

    @Test func requiredStartTLSRefusesAServerWithoutIt() throws {
        let server = try SMTPTestServer()
        defer { server.stop() }
        let sink = try SMTPTest.sink(server.url) { $0.startTLS = .required }
        defer { sink.shutdown() }
        let error = try #require(SMTPTest.error { try sink.deliver(TestMail.delivery(TestMail.rich)) })
        #expect(error.errorClass == .permanent)
        #expect(error.code == "curl 64")
        let opportunistic = try SMTPTest.sink(server.url) { $0.startTLS = .opportunistic }
        defer { opportunistic.shutdown() }
        #expect(try opportunistic.deliver(TestMail.delivery(TestMail.rich)).outcome == .sent)
    }

    @Test func oneRefusedRecipientDoesNotSinkTheOthers() throws {
        let server = try SMTPTestServer(.init(refuse: ["bob@example.net"]))
        defer { server.stop() }
        let sink = try SMTPTest.sink(server.url)
        defer { sink.shutdown() }
        let mail = MailContent(to: ["ada@example.org", "bob@example.net", "carol@example.com"], subject: "Three")
        let receipt = try sink.deliver(TestMail.delivery(mail))
        #expect(receipt.outcome == .sent)
        #expect(receipt.detail?.contains("accepted: ada@example.org, carol@example.com") == true)
        #expect(receipt.detail?.contains("refused: bob@example.net (550 5.1.1") == true)
        #expect(server.waitForMessages(1))
        #expect(try server.envelope(of: server.messages[0]).recipients == ["ada@example.org", "carol@example.com"])

        let alone = MailContent(to: ["bob@example.net"], subject: "Only Bob")
        let error = try #require(SMTPTest.error { try sink.deliver(TestMail.delivery(alone)) })
        #expect(error.errorClass == .permanent)
        #expect(error.code == "smtp 550 5.1.1")
    }

    @Test func droppedAfterDataIsUncertainAndTheRetryCarriesTheSameMessageID() throws {
        let dropping = try SMTPTestServer(.init(dropAfterData: true))
        defer { dropping.stop() }
        let delivery = TestMail.delivery(TestMail.rich)
        let first = try SMTPTest.sink(dropping.url)
        defer { first.shutdown() }
        let error = try #require(SMTPTest.error { try first.deliver(delivery) })
        #expect(error.errorClass == .uncertain)
        #expect(dropping.waitForMessages(1))

        let good = try SMTPTestServer()
        defer { good.stop() }
        let second = try SMTPTest.sink(good.url)
        defer { second.shutdown() }
        #expect(try second.deliver(delivery).outcome == .sent)
        #expect(good.waitForMessages(1))
        let mails = try SMTPFixtures.inspect([dropping.messages[0], good.messages[0]])
        #expect(mails[0].headers["Message-ID"] == "<\(TestMail.uid)@example.org>")
        #expect(mails[0].headers["Message-ID"] == mails[1].headers["Message-ID"])
    }

    @Test func aServerThatIsDownIsOfflineThenMailGoesOutWhenItComesUp() throws {
        let port = LoopbackPort.free()
        let sink = try SMTPTest.sink("smtp://127.0.0.1:\(port)")
        defer { sink.shutdown() }
        let delivery = TestMail.delivery(TestMail.rich)
        let error = try #require(SMTPTest.error { try sink.deliver(delivery) })
        #expect(error.errorClass == .offline)
        #expect(error.code == "curl 7")
        guard case .unreachable(let probeError) = sink.probe() else { Issue.record("probe said reachable"); return }
        #expect(probeError.errorClass == .offline)

        let server = try SMTPTestServer(port: port)
        defer { server.stop() }
        #expect(try sink.deliver(delivery).outcome == .sent)
        #expect(server.waitForMessages(1))
    }

    @Test func unknownHostIsOffline() throws {
        let sink = try SMTPTest.sink("smtp://no-such-host.invalid:25")
        defer { sink.shutdown() }
        let error = try #require(SMTPTest.error { try sink.deliver(TestMail.delivery(TestMail.rich)) })
        #expect(error.errorClass == .offline)
    }
}

@Suite("SMTP sink against Postfix smtp-sink") struct SMTPSinkPostfixTests {
    @Test func manyMessagesOverReusedConnections() throws {
        let server = try SMTPSinkServer()
        defer { server.stop() }
        let sink = try SMTPTest.sink(server.url) { $0.maxMessagesPerConnection = 25 }
        defer { sink.shutdown() }
        for index in 0..<200 {
            let receipt = try sink.deliver(TestMail.delivery(MailContent(to: ["ada@example.org"], subject: "n\(index)",
                                                                         textBody: "hello"), uid: "U\(index)"))
            #expect(receipt.outcome == .sent)
        }
    }

    @Test func aPooledConnectionTheServerDroppedIsReplacedWithoutFailing() throws {
        let port = LoopbackPort.free()
        let first = try SMTPSinkServer(port: port)
        let sink = try SMTPTest.sink("smtp://127.0.0.1:\(port)")
        defer { sink.shutdown() }
        #expect(try sink.deliver(TestMail.delivery(TestMail.rich, uid: "P1")).outcome == .sent)
        first.stop()
        let second = try SMTPSinkServer(port: port)
        defer { second.stop() }
        #expect(try sink.deliver(TestMail.delivery(TestMail.rich, uid: "P2")).outcome == .sent)
    }

    @Test func fiveHundredAtRCPTIsPermanent() throws {
        let error = try #require(try SMTPTest.errorFromSink(["-f", "RCPT"]))
        #expect(error.errorClass == .permanent)
        #expect(error.code?.hasPrefix("smtp 5") == true)
    }

    @Test func fourHundredAtMAILIsTransientThenSucceedsWhenTheServerRecovers() throws {
        let port = LoopbackPort.free()
        let failing = try SMTPSinkServer(["-r", "MAIL", "-b", "451 4.3.0 try again later"], port: port)
        let sink = try SMTPTest.sink("smtp://127.0.0.1:\(port)")
        defer { sink.shutdown() }
        let delivery = TestMail.delivery(TestMail.rich)
        let error = try #require(SMTPTest.error { try sink.deliver(delivery) })
        failing.stop()
        #expect(error.errorClass == .transient)
        #expect(error.code == "smtp 451 4.3.0")
        #expect(error.detail.contains("try again later"))

        let healthy = try SMTPSinkServer(port: port)
        defer { healthy.stop() }
        #expect(try sink.deliver(delivery).outcome == .sent)
    }

    @Test func rejectedAfterTheMessageIsPermanent() throws {
        let error = try #require(try SMTPTest.errorFromSink(["-f", "."]))
        #expect(error.errorClass == .permanent)
        #expect(error.code?.hasPrefix("smtp 5") == true)
    }

    @Test func fourTwentyOneAtGreetingIsTransient() throws {
        let error = try #require(try SMTPTest.errorFromSink(["-Q", "CONNECT"]))
        #expect(error.errorClass == .transient)
        #expect(error.code?.hasPrefix("smtp 421") == true)
    }

    @Test func droppedAfterTheMessageIsUncertain() throws {
        let error = try #require(try SMTPTest.errorFromSink(["-q", "."]))
        #expect(error.errorClass == .uncertain)
    }
}

@Suite struct SMTPSettingsTests {
    @Test func heloBecomesTheURLPath() throws {
        var config = SMTPConfig(url: "smtp://mail.example.org:587")
        config.helo = "client.example.org"
        let settings = try SMTPSettings(config)
        #expect(settings.url == "smtp://mail.example.org:587/client.example.org")
        #expect(settings.displayURL == "smtp://mail.example.org:587")
    }

    @Test(arguments: ["http://mail.example.org", "smtp://", "smtp://user:pw@mail.example.org", "not a url"])
    func badURLsAreConfigErrors(_ url: String) {
        #expect(throws: OutboxError.self) { try SMTPSettings(SMTPConfig(url: url)) }
    }

    @Test func missingPasswordVariableIsAConfigError() {
        var config = MailConfig()
        config.sink = .smtp
        var smtp = SMTPConfig(url: "smtp://127.0.0.1:25")
        smtp.username = "outbox"
        smtp.password = SecretReference(environmentVariable: "OUTBOX_TEST_UNSET_\(UUID().uuidString.prefix(6))")
        config.smtp = smtp
        #expect(throws: OutboxError.self) { try MailSinks.make(config: config) }
        config.smtp = nil
        #expect(throws: OutboxError.self) { try MailSinks.make(config: config) }
    }

    @Test func replyParsing() {
        let reply = SMTPReply(command: ".", recipient: nil, code: 250, text: "250 2.0.0 Ok: queued as 4F2A1B")
        #expect(reply.attemptCode == "smtp 250 2.0.0")
        #expect(reply.queueID == "4F2A1B")
        #expect(SMTPReply(command: ".", code: 250, text: "250 OK id=1abc-DEF").queueID == "1abc-DEF")
        #expect(SMTPReply(command: ".", code: 250, text: "250 Message accepted").queueID == nil)
        #expect(SMTPReply(command: "MAIL", code: 451, text: "451 try later").attemptCode == "smtp 451")
    }
}

/// Collects log lines while alive (the log is process-wide: keep the window short).
final class LogCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []
    init() {
        Log.shared.redirect { [self] line in lock.withLock { collected.append(line) } }
    }
    var lines: [String] { lock.withLock { collected } }
    func stop() { Log.shared.redirect(nil) }
}
