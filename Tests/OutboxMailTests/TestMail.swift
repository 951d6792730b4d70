import FoundationEssentials
import OutboxEngine
import OutboxModel
import OutboxStore

/// Builders for the deliveries the tests send.
enum TestMail {
    static let uid = "0F3A9C2E-5B7D-4E1F-9A2B-3C4D5E6F7A8B"

    static func delivery(_ mail: MailContent, attachments: [(name: String, type: String, bytes: [UInt8])] = [],
                         messageID: Int64 = 1, uid: String = uid) -> Delivery {
        var infos: [AttachmentInfo] = []
        var files: [Int: [UInt8]] = [:]
        for (index, attachment) in attachments.enumerated() {
            infos.append(AttachmentInfo(position: index, role: .attachment, filename: attachment.name,
                                        mimeType: attachment.type, size: attachment.bytes.count,
                                        sha256: sha256(attachment.bytes)))
            files[index] = attachment.bytes
        }
        return Delivery(messageID: messageID, uid: uid, destination: nil, attemptNumber: 1, content: .mail(mail),
                        attachments: infos, files: MemoryAttachmentSource(files), createdAt: 1_751_371_200_000)
    }

    /// Pseudo-random bytes, reproducible from `seed`.
    static func bytes(_ count: Int, seed: UInt64 = 42) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hex(Data(bytes))
    }

    /// The mail most tests send: Japanese subject and names, text and HTML, a Bcc.
    static let rich = MailContent(
        sender: "山田 太郎 <taro@example.org>", to: ["Ada Lovelace <ada@example.org>", "bob@example.net"],
        cc: ["\"Smith, John\" <john@example.com>"], bcc: ["hidden@example.org"], replyTo: ["replies@example.org"],
        subject: "会議の議事録について — minutes of the meeting, with a rather long subject line to force folding",
        textBody: "Hello Ada,\n\nPlease find the minutes attached. Café ☕ costs 3 €.\n.\nA line starting with a dot above.\n",
        htmlBody: "<p>Hello <b>Ada</b>,</p><p>日本語のテキスト</p>",
        headers: [MailHeader(name: "X-Campaign", value: "spring-2025")])
}
