/// Base64 (RFC 2045 §6.8) in lines of 76 characters ending in CRLF, as MIME bodies need.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Input bytes per 76-character output line.
    static let bytesPerLine = 57

    /// Plain base64 without line breaks (encoded-words).
    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        bytes.withUnsafeBufferPointer { append(UnsafeRawBufferPointer($0), to: &out) }
        return out
    }

    /// Base64 in CRLF-terminated lines of 76 characters; the last line may be shorter.
    static func encodeLines(_ bytes: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        var start = 0
        while start < bytes.count {
            let end = min(start + bytesPerLine, bytes.count)
            append(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), to: &out)
            out.append(13)
            out.append(10)
            start = end
        }
    }

    /// The size of `encodeLines` output for `count` input bytes.
    static func encodedLinesSize(_ count: Int) -> Int {
        let full = count / bytesPerLine
        let rest = count % bytesPerLine
        return full * 78 + (rest > 0 ? (rest + 2) / 3 * 4 + 2 : 0)
    }

    private static func append(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        var index = 0
        while index + 3 <= bytes.count {
            let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out.append(alphabet[Int(value >> 18 & 63)])
            out.append(alphabet[Int(value >> 12 & 63)])
            out.append(alphabet[Int(value >> 6 & 63)])
            out.append(alphabet[Int(value & 63)])
            index += 3
        }
        let rest = bytes.count - index
        if rest == 1 {
            let value = UInt32(bytes[index]) << 16
            out.append(alphabet[Int(value >> 18 & 63)])
            out.append(alphabet[Int(value >> 12 & 63)])
            out.append(61)
            out.append(61)
        } else if rest == 2 {
            let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            out.append(alphabet[Int(value >> 18 & 63)])
            out.append(alphabet[Int(value >> 12 & 63)])
            out.append(alphabet[Int(value >> 6 & 63)])
            out.append(61)
        }
    }
}
