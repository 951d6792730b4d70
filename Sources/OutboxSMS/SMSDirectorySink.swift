import Foundation
import OutboxEngine
import OutboxModel

/// The embedded default SMS sink: captures each message as `<dir>/<messageID>-<uid>.json`, so
/// the tool works on a machine with no gateway and a user can see exactly what would be sent.
///
/// Writes are atomic (temp file, fsync, rename, fsync of the directory) and never overwrite: a
/// file already there for the same uid means an earlier attempt got as far as the rename, so the
/// message counts as sent again rather than being written twice.
public struct SMSDirectorySink: Sink {
    public let directory: String

    public init(directory: String) { self.directory = Paths.expand(directory) }

    public var channel: Channel { .sms }
    public var name: String { "directory" }
    public var destinationDescription: String {
        "capturing to \(Paths.abbreviate(directory)) — no SMS gateway configured"
    }

    public func deliver(_ delivery: Delivery) throws(SinkError) -> DeliveryReceipt {
        guard case .sms(let sms) = delivery.content else {
            throw SinkError(.permanent, code: "wrong channel", "the SMS directory sink was handed a \(delivery.channel.rawValue) message")
        }
        let name = "\(delivery.messageID)-\(delivery.uid).json"
        let path = directory + "/" + name
        if FileManager.default.fileExists(atPath: path) {
            return DeliveryReceipt(outcome: .sent, remoteID: path, code: "file exists",
                                   detail: "already captured at \(Paths.abbreviate(path))")
        }
        let document = SMSMessageJSON(delivery, sms, createdAt: Timestamp.iso8601(delivery.createdAt))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do { data = try encoder.encode(document) + Data("\n".utf8) } catch {
            throw SinkError(.permanent, code: "json", "cannot encode the message as JSON: \(error)")
        }
        try AtomicFile.ensureDirectory(directory)
        try AtomicFile.create(path: path, contents: data)
        return DeliveryReceipt(outcome: .sent, remoteID: path, code: "file", detail: "written to \(Paths.abbreviate(path))")
    }

    public func probe() -> SinkProbe {
        do {
            try AtomicFile.ensureDirectory(directory)
            try AtomicFile.checkWritable(directory)
        } catch {
            return .unreachable(error)
        }
        return .reachable(detail: destinationDescription)
    }
}
