import OutboxEngine
import OutboxModel
import OutboxTestSupport
import Synchronization

/// Attachments held in memory, standing in for the store's blob reader. Reads come in small,
/// uneven chunks so the composer's buffering is exercised.
final class MemoryAttachmentSource: AttachmentSource {
    let files: [Int: [UInt8]]
    let opened = Mutex(0)
    let closed = Mutex(0)

    init(_ files: [Int: [UInt8]]) { self.files = files }

    func open(messageID: Int64, position: Int) throws -> any ByteStream {
        guard let bytes = files[position] else { throw FixtureError("no attachment \(position)") }
        opened.withLock { $0 += 1 }
        return Reader(bytes, onClose: { [self] in closed.withLock { $0 += 1 } })
    }

    final class Reader: ByteStream {
        let bytes: [UInt8]
        var offset = 0
        var isClosed = false
        let onClose: () -> Void
        init(_ bytes: [UInt8], onClose: @escaping () -> Void) {
            self.bytes = bytes
            self.onClose = onClose
        }
        var size: Int { bytes.count }
        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            // At most 10,007 bytes a call: a prime, so reads never align with base64 lines.
            let count = min(buffer.count, bytes.count - offset, 10_007)
            bytes.withUnsafeBytes { source in
                UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + count)]))
            }
            offset += count
            return count
        }
        func close() {
            if !isClosed { isClosed = true; onClose() }
        }
    }
}
