import Foundation
import OutboxEngine
import OutboxModel

/// An in-memory `AttachmentSource`: the bytes of each position, read back in small chunks so
/// the streaming path is exercised.
final class MemoryAttachments: AttachmentSource, @unchecked Sendable {
    // Written only before the delivery is handed to a sink.
    private var files: [Int: [UInt8]] = [:]
    private(set) var infos: [AttachmentInfo] = []

    @discardableResult
    func add(_ bytes: [UInt8], role: AttachmentRole, filename: String, mimeType: String) -> Int {
        let position = infos.count
        files[position] = bytes
        infos.append(AttachmentInfo(position: position, role: role, filename: filename, mimeType: mimeType,
                                    size: bytes.count, sha256: ""))
        return position
    }

    @discardableResult
    func add(file path: String, role: AttachmentRole, mimeType: String = "application/octet-stream") throws -> Int {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return add([UInt8](data), role: role, filename: (path as NSString).lastPathComponent, mimeType: mimeType)
    }

    func open(messageID: Int64, position: Int) throws -> any ByteStream {
        guard let bytes = files[position] else { throw OutboxError.noInput("no attachment \(position)") }
        return MemoryStream(bytes)
    }

    func delivery(_ job: PrintJob, id: Int64 = 7, destination: String? = nil) -> Delivery {
        Delivery(messageID: id, uid: UUID().uuidString, destination: destination, attemptNumber: 1, content: .print(job),
                 attachments: infos, files: self, createdAt: Timestamp.now())
    }
}

final class MemoryStream: ByteStream {
    private let bytes: [UInt8]
    private var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    var size: Int { bytes.count }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - offset, 1000)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
        offset += count
        return count
    }
    func close() {}
}
