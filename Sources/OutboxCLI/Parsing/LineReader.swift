import FoundationEssentials
import Glibc
import OutboxModel

/// Reads a file a block at a time and hands out its lines, so a bulk `import` holds one block
/// of its input, never the whole file.
struct LineReader {
    static let blockSize = 1 << 20

    private let file: SystemFile
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the next newline resumes: a line longer than a block is not
    /// scanned again from its start after each read.
    private var scanned = 0
    private var atEnd = false

    init(_ file: SystemFile) { self.file = file }

    /// Calls `body` with the next line's bytes, without its newline (valid only during the
    /// call); `nil` after the last line.
    mutating func next<R>(_ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
        while true {
            let from = max(start, scanned)
            let newline = buffer.withUnsafeBytes { bytes -> Int? in
                guard from < bytes.count, let found = memchr(bytes.baseAddress! + from, 0x0A, bytes.count - from) else { return nil }
                return bytes.baseAddress!.distance(to: UnsafeRawPointer(found))
            }
            scanned = newline ?? buffer.count
            if let end = newline ?? (atEnd && start < buffer.count ? buffer.count : nil) {
                defer { start = min(end + 1, buffer.count) }
                return try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
            }
            if atEnd { return nil }
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
            if let block = try file.read(upToCount: Self.blockSize) { buffer.append(contentsOf: block) } else { atEnd = true }
        }
    }
}
