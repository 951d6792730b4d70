import Foundation
import OutboxEngine
import OutboxModel
import OutboxTestSupport
import Testing
@testable import OutboxMail

@Suite struct MIMEComposerTests {
    let composer = MIMEComposer(defaultSender: "Outbox <outbox@example.org>", hostName: "host.example")

    func write(_ bytes: [UInt8]) throws -> String {
        let directory = try SMTPFixtures.temporaryDirectory("mime")
        let path = directory + "/m.eml"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func richMailParsesWithPythonEmail() throws {
        let pdf = TestMail.bytes(300_001)
        let note = Array("日本語のメモ\n".utf8)
        let delivery = TestMail.delivery(TestMail.rich, attachments: [
            ("report.pdf", "application/pdf", pdf),
            ("議事録 2025年 第一四半期の会議の詳細な記録と添付資料一覧.txt", "text/plain", note),
            ("empty.bin", "application/octet-stream", []),
        ])
        let message = try composer.compose(delivery)
        let bytes = try message.bytes(messageID: 1, files: delivery.files)
        #expect(bytes.count == message.size)
        let path = try write(bytes)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let mail = try #require(try SMTPFixtures.inspect([path]).first)

        #expect(mail.defects.isEmpty)
        #expect(mail.headers["Subject"] == TestMail.rich.subject)
        #expect(mail.headers["From"] == "山田 太郎 <taro@example.org>")
        #expect(mail.headers["To"] == "Ada Lovelace <ada@example.org>, bob@example.net")
        #expect(mail.headers["Cc"] == "\"Smith, John\" <john@example.com>")
        #expect(mail.headers["Reply-To"] == "replies@example.org")
        #expect(mail.headers["Message-ID"] == "<\(TestMail.uid)@example.org>")
        #expect(mail.headers["Date"] == "Tue, 01 Jul 2025 12:00:00 +0000")
        #expect(mail.headers["MIME-Version"] == "1.0")
        #expect(mail.headers["X-Campaign"] == "spring-2025")
        #expect(!mail.header_names.map { $0.lowercased() }.contains("bcc"))
        #expect(!String(decoding: bytes, as: UTF8.self).contains("hidden@example.org"))
        #expect(mail.max_header_line <= 78)
        #expect(mail.max_line <= 998)
        #expect(mail.bare_lf == 0 && mail.bare_cr == 0)

        #expect(mail.content_type == "multipart/mixed")
        #expect(mail.parts.map(\.content_type) == ["text/plain", "text/html", "application/pdf", "text/plain", "application/octet-stream"])
        #expect(mail.parts[0].text == TestMail.rich.textBody)
        #expect(mail.parts[1].text == TestMail.rich.htmlBody! + "\n")
        #expect(mail.parts[2].filename == "report.pdf")
        #expect(mail.parts[2].sha256 == TestMail.sha256(pdf))
        #expect(mail.parts[3].filename == "議事録 2025年 第一四半期の会議の詳細な記録と添付資料一覧.txt")
        #expect(mail.parts[3].disposition == "attachment")
        #expect(mail.parts[3].sha256 == TestMail.sha256(note))
        #expect(mail.parts[4].size == 0)
        #expect(message.recipients == ["ada@example.org", "bob@example.net", "john@example.com", "hidden@example.org"])
        #expect(message.envelopeSender == "taro@example.org")
    }

    @Test func textOnlyASCIIIsSevenBitAndUsesDefaultSender() throws {
        let delivery = TestMail.delivery(MailContent(to: ["ada@example.org"], subject: "Hi", textBody: "Plain.\n"))
        let message = try composer.compose(delivery)
        let text = String(decoding: try message.bytes(messageID: 1, files: delivery.files), as: UTF8.self)
        #expect(text.contains("From: Outbox <outbox@example.org>\r\n"))
        #expect(text.contains("Content-Transfer-Encoding: 7bit\r\n\r\nPlain.\r\n"))
        #expect(!text.contains("multipart"))
    }

    @Test func htmlOnlyGetsPlainTextAlternative() throws {
        let delivery = TestMail.delivery(MailContent(to: ["ada@example.org"], subject: "Hi",
                                                     htmlBody: "<h1>Title</h1><p>Fish &amp; chips</p>"))
        let path = try write(try composer.compose(delivery).bytes(messageID: 1, files: delivery.files))
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let mail = try #require(try SMTPFixtures.inspect([path]).first)
        #expect(mail.content_type == "multipart/alternative")
        #expect(mail.parts.map(\.content_type) == ["text/plain", "text/html"])
        #expect(mail.parts[0].text == "Title\nFish & chips\n")
    }

    @Test func composingIsDeterministicAcrossAttempts() throws {
        let delivery = TestMail.delivery(TestMail.rich, attachments: [("a.bin", "application/octet-stream", TestMail.bytes(1000))])
        let first = try composer.compose(delivery).bytes(messageID: 1, files: delivery.files)
        let second = try composer.compose(delivery).bytes(messageID: 1, files: delivery.files)
        #expect(first == second)
    }

    @Test func smallReadsGiveTheSameBytesAndCloseAttachments() throws {
        let source = [("a.bin", "application/octet-stream", TestMail.bytes(123_457)), ("b.bin", "image/png", TestMail.bytes(58))]
        let delivery = TestMail.delivery(TestMail.rich, attachments: source)
        let message = try composer.compose(delivery)
        let whole = try message.bytes(messageID: 1, files: delivery.files)
        let stream = message.open(messageID: 1, files: delivery.files)
        var pieces: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 7)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try stream.read(into: $0) }
            if count == 0 { break }
            pieces += buffer[0..<count]
        }
        stream.close()
        #expect(pieces == whole)
        let files = try #require(delivery.files as? MemoryAttachmentSource)
        #expect(files.opened.withLock { $0 } == 4)
        #expect(files.closed.withLock { $0 } == 4)
    }

    @Test(arguments: [
        MailContent(to: ["ada@example.org"], subject: "Hi\r\nBcc: victim@example.org"),
        MailContent(to: ["Ada\n <ada@example.org>"], subject: "Hi"),
        MailContent(to: ["ada@example.org"], subject: "Hi", headers: [MailHeader(name: "X-A", value: "1\nBcc: v@example.org")]),
        MailContent(to: ["ada@example.org"], subject: "Hi", headers: [MailHeader(name: "Bcc", value: "v@example.org")]),
        MailContent(to: ["ada@example.org"], subject: "Hi", headers: [MailHeader(name: "X A:", value: "1")]),
        MailContent(to: [], subject: "nobody"),
        MailContent(to: ["not an address"], subject: "Hi"),
    ])
    func unsafeOrInvalidMailIsRefused(_ mail: MailContent) throws {
        #expect(throws: OutboxError.self) { try composer.compose(TestMail.delivery(mail)) }
    }

    @Test func lineBreakInAttachmentNameIsRefused() {
        let delivery = TestMail.delivery(MailContent(to: ["ada@example.org"], subject: "Hi"),
                                         attachments: [("a\r\nX-Evil: 1.txt", "text/plain", [1])])
        #expect(throws: OutboxError.self) { try composer.compose(delivery) }
    }

    @Test func attachmentShorterThanRecordedFailsTheStream() throws {
        let good = TestMail.delivery(MailContent(to: ["ada@example.org"], subject: "Hi"),
                                     attachments: [("a.bin", "application/octet-stream", TestMail.bytes(100))])
        var infos = good.attachments
        infos[0].size = 200
        let bad = Delivery(messageID: 1, uid: good.uid, destination: nil, attemptNumber: 1, content: good.content,
                           attachments: infos, files: good.files, createdAt: good.createdAt)
        let message = try composer.compose(bad)
        #expect(throws: AttachmentSizeMismatch.self) { try message.bytes(messageID: 1, files: bad.files) }
    }

    @Test(arguments: [0, 1, 2, 3, 56, 57, 58, 114, 1000, 47_881])
    func base64SizeMatchesEncoder(_ count: Int) {
        var out: [UInt8] = []
        TestMail.bytes(count).withUnsafeBytes { Base64.encodeLines($0, into: &out) }
        #expect(out.count == Base64.encodedLinesSize(count))
    }

    @Test func mimeTypesAreSanitized() {
        #expect(MIMEComposer.mimeType("Application/PDF") == "application/pdf")
        #expect(MIMEComposer.mimeType("text/plain; charset=utf-8") == "text/plain")
        #expect(MIMEComposer.mimeType("garbage") == "application/octet-stream")
        #expect(MIMEComposer.mimeType("message/rfc822") == "application/octet-stream")
    }
}
