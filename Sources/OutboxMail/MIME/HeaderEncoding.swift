/// Header field rendering: RFC 2047 encoded-words, RFC 2231 parameters and RFC 5322 folding.
///
/// Everything here works on values that were already checked for CR, LF and NUL, and checks
/// again itself: a header line is only ever broken by the folding this type inserts.
enum HeaderEncoding {
    /// Folded lines stay at or below this many characters (RFC 5322 asks for 78 at most).
    static let foldWidth = 76

    // MARK: - Folding

    /// Renders `Name: word word …` with CRLF SP inserted between words so that no line exceeds
    /// `foldWidth` when it can be helped (a single word longer than that stays whole). Words are
    /// separated by one space; folding turns that space into CRLF SP, never touching the text.
    static func fold(name: String, words: [String]) -> String {
        var out = name + ":"
        var lineLength = out.utf8.count
        for word in words {
            let length = word.utf8.count
            // Folding may even come right after the colon, when the first word is long.
            if lineLength + 1 + length > foldWidth && lineLength > 1 {
                out += "\r\n "
                lineLength = 1
            } else {
                out += " "
                lineLength += 1
            }
            out += word
            lineLength += length
        }
        return out + "\r\n"
    }

    // MARK: - Unstructured text (Subject, extra headers)

    /// The words of an unstructured value: plain words when the value is ASCII with short words
    /// and no `=?` that a reader could mistake for an encoded-word, encoded-words otherwise.
    static func unstructuredWords(_ value: String) -> [String] {
        let plain = value.unicodeScalars.allSatisfy { ($0.value >= 32 && $0.value < 127) || $0 == "\t" }
            && !value.contains("=?")
        if plain {
            let words = value.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            if words.allSatisfy({ $0.utf8.count <= 900 }) { return words }
        }
        return encodedWords(value)
    }

    /// RFC 2047 `B` encoded-words of at most 64 characters (39 bytes), never splitting a character,
    /// short enough to follow any of our header names on the first line.
    /// Whitespace between adjacent encoded-words is dropped by decoders, so the text round-trips.
    static func encodedWords(_ value: String) -> [String] {
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in value {
            let bytes = Array(String(character).utf8)
            if !chunk.isEmpty && chunk.count + bytes.count > 39 {
                words.append(encodedWord(chunk))
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty { words.append(encodedWord(chunk)) }
        return words
    }

    private static func encodedWord(_ bytes: [UInt8]) -> String {
        "=?UTF-8?B?" + String(decoding: Base64.encode(bytes), as: UTF8.self) + "?="
    }

    // MARK: - Addresses

    /// `atext` of RFC 5322: what a display name may hold without quoting.
    private static let atext = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~".unicodeScalars)

    /// The words of one mailbox: the display name as atoms, a quoted string or encoded-words,
    /// then `<addr-spec>`.
    static func mailboxWords(_ mailbox: EmailAddressParts) -> [String] {
        guard let name = mailbox.displayName, !name.isEmpty else { return [mailbox.address] }
        var words: [String]
        let ascii = name.unicodeScalars.allSatisfy { $0.value >= 32 && $0.value < 127 }
        if ascii && !name.contains("=?") {
            let atoms = name.split(separator: " ", omittingEmptySubsequences: true)
            if atoms.allSatisfy({ $0.unicodeScalars.allSatisfy { atext.contains($0) } }) {
                words = atoms.map(String.init)
            } else {
                let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                words = ["\"" + escaped + "\""]
            }
        } else {
            words = encodedWords(name)
        }
        words.append("<" + mailbox.address + ">")
        return words
    }

    /// The words of an address list, commas attached to the end of each mailbox.
    static func addressListWords(_ mailboxes: [EmailAddressParts]) -> [String] {
        var words: [String] = []
        for (index, mailbox) in mailboxes.enumerated() {
            var mailboxWords = self.mailboxWords(mailbox)
            if index < mailboxes.count - 1 { mailboxWords[mailboxWords.count - 1] += "," }
            words += mailboxWords
        }
        return words
    }

    // MARK: - Parameters (RFC 2045 / 2231)

    private static let tspecials = Set("()<>@,;:\\\"/[]?=".unicodeScalars)

    /// `name="value"` for plain ASCII, else RFC 2231 `name*=utf-8''%XX…`, split into numbered
    /// continuations (`name*0*=…; name*1*=…`) so each fits a folded line.
    static func parameter(_ name: String, _ value: String) -> [String] {
        let plain = value.unicodeScalars.allSatisfy { $0.value >= 32 && $0.value < 127 && $0 != "\"" && $0 != "\\" }
        if plain && value.utf8.count <= 60 {
            return ["\(name)=\"\(value)\""]
        }
        // attribute-char: ASCII printable except SP, *, ', %, and tspecials.
        var pieces: [String] = []
        for byte in value.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte > 32 && byte < 127 && scalar != "*" && scalar != "'" && scalar != "%" && !tspecials.contains(scalar) {
                pieces.append(String(scalar))
            } else {
                pieces.append("%" + hex2(byte))
            }
        }
        let prefix = "utf-8''"
        if prefix.count + pieces.joined().count <= 50 {
            return ["\(name)*=\(prefix)\(pieces.joined())"]
        }
        var sections: [String] = []
        var current = prefix
        for piece in pieces {
            if current.count + piece.count > 45 {
                sections.append(current)
                current = ""
            }
            current += piece
        }
        sections.append(current)
        return sections.enumerated().map { "\(name)*\($0.offset)*=\($0.element)" }
    }

    /// `Name: value; p1; p2` folded before any parameter that would overflow the line.
    static func withParameters(name: String, value: String, parameters: [String]) -> String {
        var words = [value]
        for parameter in parameters {
            words[words.count - 1] += ";"
            words.append(parameter)
        }
        return fold(name: name, words: words)
    }

    static func hex2(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }
}

/// The parts of an address the composer needs (from `EmailAddress`).
struct EmailAddressParts: Sendable, Equatable {
    var displayName: String?
    var address: String
}
