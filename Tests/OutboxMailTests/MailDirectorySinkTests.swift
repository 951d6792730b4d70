import Foundation
import OutboxEngine
import OutboxModel
import OutboxTestSupport
import Testing
@testable import OutboxMail

@Suite struct MailDirectorySinkTests {
    let composer = MIMEComposer(defaultSender: "Outbox <outbox@example.org>")

    @Test func writesTheComposedBytesAtomically() throws {
        let directory = try SMTPFixtures.temporaryDirectory("maildir") + "/nested/out"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sink = MailDirectorySink(directory: directory, composer: composer)
        let delivery = TestMail.delivery(TestMail.rich, attachments: [("r.pdf", "application/pdf", TestMail.bytes(70_000))],
                                         messageID: 7)
        let receipt = try sink.deliver(delivery)
        #expect(receipt.outcome == .sent)
        #expect(receipt.remoteID == "7-\(TestMail.uid).eml")
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: sink.path(for: delivery))))
        #expect(written == (try composer.compose(delivery).bytes(messageID: 7, files: delivery.files)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["7-\(TestMail.uid).eml"])
        let mail = try #require(try SMTPFixtures.inspect([sink.path(for: delivery)]).first)
        #expect(mail.headers["Subject"] == TestMail.rich.subject)
        #expect(mail.parts.last?.sha256 == TestMail.sha256(TestMail.bytes(70_000)))
    }

    @Test func aSecondAttemptNeverOverwrites() throws {
        let directory = try SMTPFixtures.temporaryDirectory("maildir")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sink = MailDirectorySink(directory: directory, composer: composer)
        let delivery = TestMail.delivery(TestMail.rich)
        _ = try sink.deliver(delivery)
        let path = sink.path(for: delivery)
        try Data("marker".utf8).write(to: URL(fileURLWithPath: path))
        let again = try sink.deliver(delivery)
        #expect(again.outcome == .sent)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "marker")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).count == 1)
    }

    @Test func unwritableDirectoryIsOfflineAndProbeSaysSo() throws {
        let base = try SMTPFixtures.temporaryDirectory("maildir")
        defer { try? FileManager.default.removeItem(atPath: base) }
        let file = base + "/not-a-dir"
        try Data().write(to: URL(fileURLWithPath: file))
        let sink = MailDirectorySink(directory: file, composer: composer)
        #expect(throws: SinkError.self) { try sink.deliver(TestMail.delivery(TestMail.rich)) }
        do { _ = try sink.deliver(TestMail.delivery(TestMail.rich)) } catch { #expect(error.errorClass == .offline) }
        guard case .unreachable(let error) = sink.probe() else { Issue.record("probe said reachable"); return }
        #expect(error.errorClass == .offline)
        let good = MailDirectorySink(directory: base + "/ok", composer: composer)
        #expect(good.probe() == .reachable(detail: good.destinationDescription))
    }

    @Test func composeErrorsArePermanent() throws {
        let base = try SMTPFixtures.temporaryDirectory("maildir")
        defer { try? FileManager.default.removeItem(atPath: base) }
        let sink = MailDirectorySink(directory: base, composer: MIMEComposer(defaultSender: nil))
        do {
            _ = try sink.deliver(TestMail.delivery(MailContent(to: ["ada@example.org"], subject: "no sender")))
            Issue.record("delivered a mail without a sender")
        } catch {
            #expect(error.errorClass == .permanent)
        }
    }

    @Test func defaultConfigCapturesToADirectory() throws {
        let sink = try MailSinks.make(config: MailConfig())
        #expect(sink.name == "directory")
        #expect(sink.channel == .mail)
        #expect(sink.destinationDescription.hasPrefix("capturing to "))
        #expect(sink.destinationDescription.hasSuffix("out/mail — no SMTP configured"))
    }
}
