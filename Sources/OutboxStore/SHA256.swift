import CNettle
import FoundationEssentials
import OutboxModel

/// Streaming SHA-256 through Nettle.
public final class SHA256 {
    private var context = sha256_ctx()

    public init() { nettle_sha256_init(&context) }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        nettle_sha256_update(&context, bytes.count, base.assumingMemoryBound(to: UInt8.self))
    }

    public func update(_ data: Data) { data.withUnsafeBytes { update($0) } }

    /// The digest as lowercase hex; the hasher cannot be used afterwards.
    public func finalizeHex() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        nettle_sha256_digest(&context, digest.count, &digest)
        let hex = Array("0123456789abcdef".utf8)
        return String(decoding: digest.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 0x0F)]] }, as: UTF8.self)
    }

    /// Hashes a whole file in 1 MiB chunks.
    public static func hex(ofFile path: String) throws -> String {
        guard let handle = SystemFile(forReadingAtPath: path) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: ["NSFilePath": path])
        }
        defer { try? handle.close() }
        let hasher = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(chunk) }
        return hasher.finalizeHex()
    }

    public static func hex(_ data: Data) -> String {
        let hasher = SHA256()
        hasher.update(data)
        return hasher.finalizeHex()
    }
}

@available(*, unavailable)
extension SHA256: Sendable {}
