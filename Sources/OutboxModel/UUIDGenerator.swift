import FoundationEssentials
import Glibc

/// Time-ordered (version 7, RFC 9562) UUIDs as lowercase text, for bulk use.
///
/// Version 7 starts with the Unix time in milliseconds, so new uids land at the end of the
/// `message.uid` index instead of on a random page of it: bulk enqueue touches a few pages,
/// not the whole index. The other 74 bits are random. `UUID()` opens and reads
/// `/dev/urandom` once per call, which was a tenth of the time of a bulk `import`; this reads
/// random bytes 4 KB at a time instead (256 UUIDs a read).
///
/// A value type meant for one caller at a time: make one per batch.
public struct UUIDGenerator {
    private var pool: [UInt8] = []
    private var used = 0
    private static let poolSize = 4096

    public init() {}

    /// The next UUID, e.g. `019ad0c2-5b7d-7e21-9a0b-6c8d2e4f1a3b`.
    public mutating func next(now: Milliseconds = Timestamp.now()) -> String {
        if used + 16 > pool.count { refill() }
        // The first six bytes: the time, big-endian.
        pool.withUnsafeMutableBufferPointer { pool in
            for offset in 0..<6 { pool[used + offset] = UInt8(truncatingIfNeeded: UInt64(now) >> (40 - 8 * offset)) }
        }
        let hex: StaticString = "0123456789abcdef"
        let text = pool.withUnsafeBufferPointer { pool in
            String(unsafeUninitializedCapacity: 36) { out in
                var position = 0
                for offset in 0..<16 {
                    var byte = pool[used + offset]
                    if offset == 6 { byte = byte & 0x0F | 0x70 }  // version 7
                    if offset == 8 { byte = byte & 0x3F | 0x80 }  // RFC 4122 variant
                    if offset == 4 || offset == 6 || offset == 8 || offset == 10 {
                        out[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    out[position] = hex.utf8Start[Int(byte >> 4)]
                    out[position + 1] = hex.utf8Start[Int(byte & 0x0F)]
                    position += 2
                }
                return position
            }
        }
        used += 16
        return text
    }

    private mutating func refill() {
        pool = [UInt8](repeating: 0, count: Self.poolSize)
        used = 0
        let descriptor = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        var filled = 0
        if descriptor >= 0 {
            defer { close(descriptor) }
            while filled < pool.count {
                let count = pool.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
                if count <= 0 { break }
                filled += count
            }
        }
        if filled < pool.count {
            // No /dev/urandom (a sandbox): the standard library's source, 8 bytes at a time.
            var generator = SystemRandomNumberGenerator()
            for start in stride(from: 0, to: pool.count, by: 8) {
                withUnsafeBytes(of: generator.next()) { pool.replaceSubrange(start..<start + 8, with: $0) }
            }
        }
    }
}
