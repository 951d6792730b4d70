import Foundation
import OutboxEngine
import OutboxModel

/// A delivery's stored attachments copied, on first use, into a private temporary directory
/// (blobs are streamed, never loaded whole). `removeAll()` deletes the copies.
public final class StoredPrintFiles: PrintFileResolver {
    private let delivery: Delivery
    private let directory: URL
    private var copied: [Int: String] = [:]

    public init(delivery: Delivery) throws {
        self.delivery = delivery
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-print-\(delivery.messageID)-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw PrintRenderError(.io, "cannot create a temporary directory for message \(delivery.messageID)'s files: \(error.localizedDescription)")
        }
    }

    deinit { removeAll() }

    public func path(forAttachment position: Int) throws -> String {
        if let path = copied[position] { return path }
        guard delivery.attachments.contains(where: { $0.position == position }) else {
            throw PrintRenderError.bad("the print job names attachment \(position), which message \(delivery.messageID) does not have")
        }
        let path = directory.appendingPathComponent("\(position)").path
        let stream = try delivery.files.open(messageID: delivery.messageID, position: position)
        defer { stream.close() }
        guard let out = fopen(path, "wb") else {
            throw PrintRenderError(.io, "cannot write \(path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(out) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try stream.read(into: buffer)
            if count == 0 { break }
            guard fwrite(buffer.baseAddress, 1, count, out) == count else {
                throw PrintRenderError(.io, "cannot write \(path): \(String(cString: strerror(errno)))")
            }
        }
        copied[position] = path
        return path
    }

    public func mimeType(forAttachment position: Int) -> String? {
        delivery.attachments.first { $0.position == position }?.mimeType
    }

    public func displayName(forAttachment position: Int) -> String {
        delivery.attachments.first { $0.position == position }.map { "\($0.filename) (attachment \(position))" } ?? "attachment \(position)"
    }

    public func removeAll() {
        try? FileManager.default.removeItem(at: directory)
        copied = [:]
    }
}
