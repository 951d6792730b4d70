/// `application/x-www-form-urlencoded` and query strings, byte by byte over UTF-8.
///
/// Only RFC 3986 unreserved characters stay as they are; everything else, `+` included, is
/// percent-encoded, so a `+` in an E.164 number or a text never turns into a space.
enum FormEncoding {
    static func encode(_ fields: [(String, String)]) -> String {
        fields.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    static func escape(_ text: String) -> String {
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count * 3)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes one query-string component: `+` is a space, `%XX` a byte; bad escapes stay.
    static func unescape(_ text: Substring) -> String {
        var out = [UInt8]()
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), i + 2 < bytes.count,
                      let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2]) {
                out.append(high << 4 | low)
                i += 2
            } else {
                out.append(byte)
            }
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Splits `a=1&b=2` into decoded pairs; a later duplicate name wins.
    static func parseQuery(_ query: Substring) -> [String: String] {
        var result: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            result[unescape(parts[0])] = parts.count > 1 ? unescape(parts[1]) : ""
        }
        return result
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
