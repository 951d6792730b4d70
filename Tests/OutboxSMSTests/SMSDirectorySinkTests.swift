import Foundation
import OutboxEngine
import OutboxModel
import OutboxSMS
import Testing

@Suite struct SMSDirectorySinkTests {
    @Test func writesOneJSONFilePerMessage() throws {
        let dir = makeTemporaryDirectory("smsdir")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sink = SMSDirectorySink(directory: dir + "/out/sms")
        let delivery = smsDelivery(id: 42, from: "Outbox", body: "Grüße € 日本")
        let receipt = try sink.deliver(delivery)
        #expect(receipt.outcome == .sent)
        let path = dir + "/out/sms/42-\(delivery.uid).json"
        #expect(receipt.remoteID == path)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
        #expect(json["id"] as? Int == 42)
        #expect(json["uid"] as? String == delivery.uid)
        #expect(json["to"] as? String == "+4915112345678")
        #expect(json["from"] as? String == "Outbox")
        #expect(json["body"] as? String == "Grüße € 日本")
        #expect(json["encoding"] as? String == "ucs2")
        #expect(json["segments"] as? Int == 1)
        #expect(json["created_at"] is String)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir + "/out/sms").filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }

    @Test func aRetryNeverOverwritesAndCountsAsSent() throws {
        let dir = makeTemporaryDirectory("smsdir")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sink = SMSDirectorySink(directory: dir)
        let first = smsDelivery(id: 7, body: "first")
        _ = try sink.deliver(first)
        let retry = smsDelivery(id: 7, uid: first.uid, body: "changed", attempt: 2)
        let receipt = try sink.deliver(retry)
        #expect(receipt.outcome == .sent)
        #expect(receipt.code == "file exists")
        let text = try String(contentsOfFile: dir + "/7-\(first.uid).json", encoding: .utf8)
        #expect(text.contains("\"first\""))
    }

    @Test func anUnwritableDirectoryIsOffline() throws {
        let dir = makeTemporaryDirectory("smsdir")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = FileManager.default.createFile(atPath: dir + "/file", contents: Data())
        let sink = SMSDirectorySink(directory: dir + "/file")
        do { _ = try sink.deliver(smsDelivery(body: "x")); Issue.record("expected an error") } catch {
            #expect(error.errorClass == .offline)
        }
        if case .reachable = sink.probe() { Issue.record("probe should fail") }
    }

    @Test func describesWhereMessagesGo() {
        let sink = SMSDirectorySink(directory: Paths.home + "/.local/share/outbox/out/sms")
        #expect(sink.destinationDescription == "capturing to ~/.local/share/outbox/out/sms — no SMS gateway configured")
        #expect(sink.name == "directory")
        #expect(sink.channel == .sms)
    }
}
