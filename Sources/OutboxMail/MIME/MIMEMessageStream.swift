import OutboxEngine

/// Streams a composed message: literal segments are copied, attachments are opened from the
/// `AttachmentSource` one at a time and base64-encoded a few kilobytes at a time, so a large
/// attachment never sits in memory (curl's read callback pulls from here).
///
/// Not thread-safe: one reader at a time.
public final class MIMEMessageStream: ByteStream {
    public let size: Int
    private let segments: [MIMESegment]
    private let messageID: Int64
    private let files: any AttachmentSource
    private var index = 0
    private var offset = 0
    private var encoder: Base64StreamEncoder?

    init(segments: [MIMESegment], size: Int, messageID: Int64, files: any AttachmentSource) {
        self.segments = segments
        self.size = size
        self.messageID = messageID
        self.files = files
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var written = 0
        while written < buffer.count && index < segments.count {
            switch segments[index] {
            case .bytes(let bytes):
                let count = min(bytes.count - offset, buffer.count - written)
                bytes.withUnsafeBytes { source in
                    UnsafeMutableRawBufferPointer(rebasing: buffer[written..<(written + count)])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + count)]))
                }
                written += count
                offset += count
                if offset == bytes.count {
                    index += 1
                    offset = 0
                }
            case .attachment(let position, let size):
                if encoder == nil {
                    encoder = Base64StreamEncoder(source: try files.open(messageID: messageID, position: position),
                                                  expectedSize: size, position: position)
                }
                let count = try encoder!.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[written...]))
                if count == 0 {
                    encoder?.close()
                    encoder = nil
                    index += 1
                } else {
                    written += count
                }
            }
        }
        return written
    }

    public func close() {
        encoder?.close()
        encoder = nil
        index = segments.count
    }

    deinit { encoder?.close() }
}

/// Base64-encodes one attachment stream in 76-character lines, checking its length against the
/// stored size (the message size was computed from it before sending).
final class Base64StreamEncoder {
    /// Input read per refill: a whole number of 57-byte lines (about 48 KiB).
    private static let chunk = Base64.bytesPerLine * 840

    private let source: any ByteStream
    private let expectedSize: Int
    private let position: Int
    private var input: [UInt8]
    private var inputCount = 0
    private var output: [UInt8] = []
    private var outputOffset = 0
    private var totalRead = 0
    private var finished = false

    init(source: any ByteStream, expectedSize: Int, position: Int) {
        self.source = source
        self.expectedSize = expectedSize
        self.position = position
        self.input = [UInt8](repeating: 0, count: Self.chunk)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if outputOffset == output.count {
            try refill()
            if output.isEmpty { return 0 }
        }
        let count = min(buffer.count, output.count - outputOffset)
        output.withUnsafeBytes { source in
            UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[outputOffset..<(outputOffset + count)]))
        }
        outputOffset += count
        return count
    }

    private func refill() throws {
        output.removeAll(keepingCapacity: true)
        outputOffset = 0
        if finished { return }
        // Fill the input buffer completely (or to the end), so only the final line is short.
        while inputCount < input.count {
            let count = try input.withUnsafeMutableBytes { raw in
                try source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[inputCount...]))
            }
            if count == 0 {
                finished = true
                break
            }
            inputCount += count
            totalRead += count
            if totalRead > expectedSize { break }
        }
        if totalRead > expectedSize || (finished && totalRead != expectedSize) {
            throw AttachmentSizeMismatch(position: position, expected: expectedSize, actual: totalRead)
        }
        input.withUnsafeBytes { Base64.encodeLines(UnsafeRawBufferPointer(rebasing: $0[0..<inputCount]), into: &output) }
        inputCount = 0
    }

    func close() { source.close() }
}

/// An attachment's stored bytes no longer match its recorded size.
public struct AttachmentSizeMismatch: Error, CustomStringConvertible {
    public let position: Int
    public let expected: Int
    public let actual: Int
    public var description: String {
        "attachment \(position) has \(actual) bytes but \(expected) were recorded"
    }
}
