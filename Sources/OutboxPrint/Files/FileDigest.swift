import CPangoCairo
import Foundation

/// SHA-256 of a file, streamed through GLib's `GChecksum` (glib is already linked for pango,
/// so the print layer needs no crypto library of its own).
enum FileDigest {
    static func sha256(path: String) throws -> String {
        guard let file = fopen(path, "rb") else {
            throw PrintRenderError(.io, "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        guard let checksum = g_checksum_new(G_CHECKSUM_SHA256) else {
            throw PrintRenderError(.internal, "g_checksum_new failed")
        }
        defer { g_checksum_free(checksum) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count > 0 { g_checksum_update(checksum, buffer, gssize(count)) }
            if count < buffer.count {
                guard ferror(file) == 0 else { throw PrintRenderError(.io, "cannot read \(path)") }
                break
            }
        }
        return String(cString: g_checksum_get_string(checksum))
    }
}
