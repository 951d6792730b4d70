import Foundation
import OutboxTestSupport
import Testing

/// `outbox sms` → a running `outbox worker` → Kannel (bearerbox + smsbox + fakesmsc) → the
/// delivery report comes back to the worker's dlr-url listener and moves the message from
/// `submitted` to `sent`.
@Suite("SMS end to end through Kannel", .serialized)
struct KannelEndToEndTests {
    @Test func deliveryReportSettlesTheMessage() throws {
        let gateway = try KannelGateway()
        defer { gateway.tearDown() }
        let cli = CLI("kannel-e2e")
        let dlrPort = LoopbackPort.free()
        let config = cli.temporary.write("config.json", """
            {"sms": {"sink": "kannel",
                     "kannel": {"url": "\(gateway.sendsmsURL)", "username": "\(gateway.username)",
                                "password_env": "OUTBOX_KANNEL_PASSWORD", "from": "\(gateway.globalSender)",
                                "dlr_listen": "127.0.0.1:\(dlrPort)"}}}
            """)
        var runner = cli.runner
        runner.extraEnvironment["OUTBOX_KANNEL_PASSWORD"] = gateway.password
        #expect(runner.run(["--config", config, "sms", "--to", "+4915112345678", "--body", "こんにちは from outbox"]).status == 0)

        let process = OutboxProcess(database: cli.temporary.path, config: config,
                                    extra: ["OUTBOX_KANNEL_PASSWORD": gateway.password, "HOME": runner.home])
        let worker = try process.start(["worker", "--verbose"], log: cli.temporary.file("worker.log"))
        defer { if worker.isRunning { kill(worker.processIdentifier, SIGKILL) }; worker.waitUntilExit() }

        let settled = waitUntil(20) {
            (runner.run(["history", "--json"]).jsonLines.first?["state"] as? String) == "sent"
        }
        let log = (try? String(contentsOfFile: cli.temporary.file("worker.log"), encoding: .utf8)) ?? ""
        #expect(settled, "\(log)")
        #expect(gateway.received.contains { $0.text == "こんにちは from outbox" })
        let attempts = runner.run(["show", "1", "--json"]).jsonLines.first?["attempt_log"] as? [[String: Any]] ?? []
        #expect(attempts.map { $0["outcome"] as? String } == ["submitted", "delivered"])
        #expect(!log.contains(gateway.password))
    }
}
