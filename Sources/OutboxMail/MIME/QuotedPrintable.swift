/// Quoted-printable (RFC 2045 §6.7) for text bodies that are mostly ASCII.
enum QuotedPrintable {
    /// Encodes CRLF-separated `lines` (hard line breaks stay CRLF); encoded lines are at most 76
    /// characters, with `=` soft breaks. Trailing spaces and tabs are encoded so transports that
    /// strip them cannot change the text.
    static func encode(lines: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        for line in lines {
            var length = 0
            for (index, byte) in line.enumerated() {
                let last = index == line.count - 1
                let literal = (byte >= 33 && byte <= 126 && byte != 61) || ((byte == 32 || byte == 9) && !last)
                let token: [UInt8] = literal ? [byte] : Array(("=" + HeaderEncoding.hex2(byte)).utf8)
                // Leave room for the soft-break "=" unless this is the line's last token.
                let limit = last ? 76 : 75
                if length + token.count > limit {
                    out += [61, 13, 10]
                    length = 0
                }
                out += token
                length += token.count
            }
            out += [13, 10]
        }
        return out
    }
}
