import Foundation
import OutboxModel
import Testing

@Suite("Config loader")
struct ConfigTests {
    static let exampleFile = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("config.example.json")

    static func parse(_ json: String) throws(OutboxError) -> Config { try Config.parse(Data(json.utf8), source: "test.json") }

    static func error(_ json: String) -> OutboxError? {
        do { _ = try parse(json); return nil } catch { return error }
    }

    @Test func emptyObjectIsTheEmbeddedDefault() throws {
        #expect(try Self.parse("{}") == Config())
        let config = Config()
        #expect(config.mail.sink == .directory)
        #expect(config.sms.sink == .directory)
        #expect(config.print.defaultDestination == "pdf")
    }

    /// Every key of config.example.json is accepted (unknown keys are errors, so parsing proves
    /// it) and lands where it should.
    @Test func everyKeyOfTheExampleIsReadAndApplied() throws {
        let data = try Data(contentsOf: Self.exampleFile)
        let config = try Config.parse(data, source: "config.example.json")
        let home = Paths.home
        #expect(config.database == home + "/.local/share/outbox/outbox.sqlite")
        #expect(config.worker.concurrency == [.mail: 4, .sms: 2, .print: 1])
        #expect(config.worker.leaseSeconds == 60)
        #expect(config.worker.maxLostLeases == 3)
        #expect(config.worker.shutdownGraceSeconds == 30)
        #expect(config.worker.deliveryTimeoutSeconds == 300)
        #expect(config.retry[.mail] == RetryPolicy(maxAttempts: 10, baseSeconds: 60, maxDelaySeconds: 3600, deadlineHours: 120))
        #expect(config.retry[.sms] == RetryPolicy(maxAttempts: 8, baseSeconds: 30, maxDelaySeconds: 1800, deadlineHours: 24))
        #expect(config.retry[.print] == RetryPolicy(maxAttempts: 5, baseSeconds: 30, maxDelaySeconds: 900, deadlineHours: 24))
        #expect(config.mail.sink == .smtp)
        #expect(config.mail.from == "Outbox <outbox@example.org>")
        let smtp = try #require(config.mail.smtp)
        #expect(smtp.url == "smtp://mail.example.org:587")
        #expect(smtp.startTLS == .required)
        #expect(smtp.caFile == "/etc/ssl/certs/ca-certificates.crt")
        #expect(smtp.username == "outbox")
        #expect(smtp.password == SecretReference(environmentVariable: "OUTBOX_SMTP_PASSWORD"))
        #expect(smtp.helo == "host.example.org")
        #expect(smtp.connectTimeoutSeconds == 10)
        #expect(smtp.timeoutSeconds == 120)
        #expect(smtp.maxMessagesPerConnection == 100)
        #expect(smtp.insecureSkipVerify == false)
        #expect(config.mail.directory == home + "/.local/share/outbox/out/mail")
        #expect(config.sms.sink == .kannel)
        #expect(config.sms.defaultCountryCode == "+49")
        let kannel = try #require(config.sms.kannel)
        #expect(kannel.url == "http://127.0.0.1:13013/cgi-bin/sendsms")
        #expect(kannel.username == "outbox")
        #expect(kannel.password == SecretReference(environmentVariable: "OUTBOX_KANNEL_PASSWORD"))
        #expect(kannel.from == "12345")
        #expect(kannel.dlrListen == "127.0.0.1:8090")
        let twilio = try #require(config.sms.twilio)
        #expect(twilio.baseURL == "https://api.twilio.com")
        #expect(twilio.accountSID == "AC00000000000000000000000000000000")
        #expect(twilio.authToken == SecretReference(environmentVariable: "OUTBOX_TWILIO_TOKEN"))
        #expect(twilio.from == "+15550001111")
        #expect(twilio.messagingServiceSID == "MG00000000000000000000000000000000")
        #expect(config.sms.webhook?.url == "https://sms.example.org/send")
        #expect(config.sms.webhook?.headersEnv == ["Authorization": "OUTBOX_WEBHOOK_AUTH"])
        #expect(config.sms.directory == home + "/.local/share/outbox/out/sms")
        #expect(config.print.defaultDestination == "pdf")
        #expect(config.print.pdfDirectory == home + "/.local/share/outbox/out/pdf")
        #expect(config.print.cupsServer == "/run/cups/cups.sock")
        #expect(config.print.defaults == { var d = PrintDefaults(); d.paper = "A4"; d.font = "DejaVu Serif 11"; d.lineSpacing = 1.2; return d }())
    }

    /// Every leaf key of the example, renamed, is refused with its full path.
    @Test func everyKeyOfTheExampleIsCheckedForTypos() throws {
        let data = try Data(contentsOf: Self.exampleFile)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var paths: [[String]] = []
        func walk(_ object: [String: Any], _ prefix: [String]) {
            for (key, value) in object {
                if let child = value as? [String: Any], prefix + [key] != ["sms", "webhook", "headers_env"] { walk(child, prefix + [key]) }
                paths.append(prefix + [key])
            }
        }
        walk(root, [])
        #expect(paths.count > 40)
        for path in paths {
            let mangled = renamed(root, path, to: path.last! + "x")
            let json = try JSONSerialization.data(withJSONObject: mangled)
            do {
                _ = try Config.parse(json, source: "c.json")
                Issue.record("renaming \(path.joined(separator: ".")) was accepted")
            } catch {
                #expect(error.code == .config)
                // The typo's path, or (for a required key such as kannel.url) the missing key's path.
                let typo = (path.dropLast() + [path.last! + "x"]).joined(separator: ".")
                let original = path.joined(separator: ".")
                #expect(error.message.contains(typo) || error.message.contains(original), "\(error.message) names neither \(typo) nor \(original)")
            }
        }
    }

    func renamed(_ object: [String: Any], _ path: [String], to newName: String) -> [String: Any] {
        var copy = object
        if path.count == 1 {
            copy[newName] = copy.removeValue(forKey: path[0])
        } else if let child = copy[path[0]] as? [String: Any] {
            copy[path[0]] = renamed(child, Array(path.dropFirst()), to: newName)
        }
        return copy
    }

    @Test(arguments: [
        (#"{"worker": {"lease_seconds": "60"}}"#, "worker.lease_seconds"),
        (#"{"worker": {"concurrency": {"mail": 1.5}}}"#, "worker.concurrency.mail"),
        (#"{"retry": {"sms": {"max_attempts": true}}}"#, "retry.sms.max_attempts"),
        (#"{"mail": {"smtp": {"url": "smtp://x", "insecure_skip_verify": "no"}}}"#, "mail.smtp.insecure_skip_verify"),
        (#"{"mail": {"sink": "carrier-pigeon"}}"#, "mail.sink"),
        (#"{"mail": "smtp"}"#, "mail"),
        (#"{"database": 7}"#, "database"),
        (#"{"print": {"defaults": {"line_spacing": 99}}}"#, "print.defaults.line_spacing"),
        (#"{"sms": {"default_country_code": "49"}}"#, "sms.default_country_code"),
        (#"{"mail": {"from": "not an address"}}"#, "mail.from"),
        (#"{"sms": {"webhook": {"url": "https://x", "headers_env": {"Authorization": 5}}}}"#, "sms.webhook.headers_env"),
    ])
    func wrongTypeOrValueNamesTheKeyPath(json: String, path: String) {
        let error = Self.error(json)
        #expect(error?.code == .config)
        #expect(error?.message.contains(path) == true, "\(error?.message ?? "accepted") should name \(path)")
    }

    @Test(arguments: [
        (#"{"wroker": {}}"#, "wroker"),
        (#"{"mail": {"smtp": {"url": "smtp://x", "pasword_env": "P"}}}"#, "mail.smtp.pasword_env"),
        (#"{"retry": {"fax": {}}}"#, "retry.fax"),
        (#"{"print": {"cups": {"host": "x"}}}"#, "print.cups.host"),
    ])
    func unknownKeyNamesItsPath(json: String, path: String) {
        let error = Self.error(json)
        #expect(error?.code == .config)
        #expect(error?.message.contains(path) == true, "\(error?.message ?? "accepted") should name \(path)")
    }

    @Test(arguments: [
        (#"{"mail": {"smtp": {"url": "smtp://x", "password": "hunter2-secret"}}}"#, "mail.smtp.password"),
        (#"{"sms": {"kannel": {"url": "http://x", "password": "hunter2-secret"}}}"#, "sms.kannel.password"),
        (#"{"sms": {"twilio": {"account_sid": "AC1", "auth_token": "hunter2-secret"}}}"#, "sms.twilio.auth_token"),
        (#"{"sms": {"webhook": {"url": "https://x", "headers": {"Authorization": "hunter2-secret"}}}}"#, "sms.webhook.headers"),
    ])
    func inlineSecretIsRefusedAndNotEchoed(json: String, path: String) {
        let error = Self.error(json)
        #expect(error?.code == .config)
        #expect(error?.message.contains(path) == true)
        #expect(error?.message.contains("hunter2-secret") == false)
    }

    @Test func secretByFileIsAccepted() throws {
        let config = try Self.parse(#"{"mail": {"sink": "smtp", "smtp": {"url": "smtps://x", "password_file": "/run/secrets/smtp"}}}"#)
        #expect(config.mail.smtp?.password == SecretReference(file: "/run/secrets/smtp"))
        #expect(Self.error(#"{"mail": {"smtp": {"url": "smtps://x", "password_file": "/a", "password_env": "B"}}}"#)?.code == .config)
    }

    @Test func secretReferenceNeverPrintsItsValue() throws {
        let reference = SecretReference(environmentVariable: "OUTBOX_TEST_SECRET")
        #expect(try reference.resolve(environment: ["OUTBOX_TEST_SECRET": "s3cr3t"]) == "s3cr3t")
        #expect(!reference.description.contains("s3cr3t"))
        #expect(throws: OutboxError.self) { try reference.resolve(environment: [:]) }
    }

    @Test(arguments: ["", "{", "[]", "{\"mail\": }", "null", "{\"a\": 1,}"])
    func malformedJSONIsAConfigError(json: String) {
        #expect(Self.error(json)?.code == .config)
    }

    @Test func sinkWithoutItsSectionIsRefused() {
        #expect(Self.error(#"{"mail": {"sink": "smtp"}}"#)?.code == .config)
        #expect(Self.error(#"{"sms": {"sink": "twilio"}}"#)?.code == .config)
        #expect(Self.error(#"{"mail": {"smtp": {"url": "http://not-smtp"}}}"#)?.code == .config)
    }

    @Test func missingFileIsAConfigError() {
        #expect(throws: OutboxError.self) { _ = try Config.load(path: "/nonexistent/outbox/config.json") }
    }
}
