import Foundation
import OutboxEngine
import OutboxModel

/// SMS carries no attachments: opening one is a test bug.
struct NoAttachments: AttachmentSource {
    struct Unexpected: Error {}
    func open(messageID: Int64, position: Int) throws -> any ByteStream { throw Unexpected() }
}

/// A `Delivery` built directly, without the store (the worker integration is tested elsewhere).
func smsDelivery(id: Int64 = 1, uid: String = UUID().uuidString.lowercased(), to: String = "+4915112345678",
                 from: String? = nil, body: String, attempt: Int = 1) -> Delivery {
    Delivery(messageID: id, uid: uid, destination: nil, attemptNumber: attempt,
             content: .sms(SMSContent(sender: from, recipient: to, body: body)),
             attachments: [], files: NoAttachments(), createdAt: Timestamp.now())
}

/// A fresh temporary directory, removed by the caller.
func makeTemporaryDirectory(_ label: String) -> String {
    let path = NSTemporaryDirectory() + "outbox-\(label)-" + UUID().uuidString
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Polls `condition` until it holds or `seconds` pass; the deadline replaces a hopeful sleep.
func waitUntil(_ seconds: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(20_000)
    }
    return try condition()
}
