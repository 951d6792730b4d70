import CCrypto
import FoundationEssentials
import OutboxModel

/// Streaming SHA-256 through OpenSSL's EVP interface.
public final class SHA256 {
    private let context: OpaquePointer

    public init() {
        context = EVP_MD_CTX_new()
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    public func update(_ data: Data) { data.withUnsafeBytes { update($0) } }

    /// The digest as lowercase hex; the hasher cannot be used afterwards.
    public func finalizeHex() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
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
