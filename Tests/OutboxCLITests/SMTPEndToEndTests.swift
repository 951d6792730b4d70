import Foundation
import OutboxTestSupport
import Testing

/// `outbox mail` → `outbox worker` → a real SMTP server (aiosmtpd), through the config file:
/// delivered with its Bcc in the envelope only; while the server is down the mail waits
/// without spending an attempt and goes out when it is back.
@Suite("Mail end to end through SMTP", .serialized)
struct SMTPEndToEndTests {
    func config(_ cli: CLI, url: String) -> String {
        cli.temporary.write("config.json", """
            {"mail": {"sink": "smtp", "from": "Outbox <outbox@example.org>",
                      "smtp": {"url": "\(url)", "starttls": "off", "connect_timeout_seconds": 2}},
             "retry": {"mail": {"base_seconds": 0, "max_delay_seconds": 0}}}
            """)
    }

    @Test func mailGoesOutThroughTheWorker() throws {
        let server = try SMTPTestServer()
        defer { server.stop() }
        let cli = CLI("smtp-e2e")
        let config = config(cli, url: server.url)
        #expect(cli.ok("--config", config, "mail", "--to", "ada@example.org", "--bcc", "boss@example.org",
                       "--subject", "Minutes", "--body", "See attached").lines == ["1"])
        #expect(cli.ok("--config", config, "worker", "--once").stdout.contains("1 sent"))
        #expect(server.waitForMessages(1))
        let envelope = try server.envelope(of: server.messages[0])
        #expect(Set(envelope.recipients) == ["ada@example.org", "boss@example.org"])
        let raw = try String(contentsOfFile: server.messages[0], encoding: .utf8)
        #expect(!raw.lowercased().contains("boss@example.org"))
        let shown = cli.ok("show", "1", "--json").jsonLines.first ?? [:]
        #expect(shown["state"] as? String == "sent")
        let attempts = shown["attempt_log"] as? [[String: Any]] ?? []
        #expect(attempts.count == 1 && (attempts.first?["code"] as? String)?.hasPrefix("smtp 250") == true)
    }

    @Test func aServerThatIsDownCostsNoAttemptAndDrainsWhenBack() throws {
        let port = LoopbackPort.free()
        let cli = CLI("smtp-down")
        let config = config(cli, url: "smtp://127.0.0.1:\(port)")
        #expect(cli.ok("--config", config, "mail", "--to", "ada@example.org", "--subject", "Later", "--body", "x").lines == ["1"])
        let offline = cli.run("--config", config, "worker", "--once")
        #expect(offline.status == 75, "\(offline)")
        let waiting = cli.ok("show", "1", "--json").jsonLines.first ?? [:]
        #expect(waiting["state"] as? String == "queued")
        #expect(waiting["attempts"] as? Int == 0)

        let server = try SMTPTestServer(port: port)
        defer { server.stop() }
        #expect(cli.ok("--config", config, "worker", "--once").stdout.contains("1 sent"))
        #expect(server.waitForMessages(1))
        let sent = cli.ok("show", "1", "--json").jsonLines.first ?? [:]
        #expect(sent["state"] as? String == "sent")
        #expect(sent["attempts"] as? Int == 1)
    }
}
