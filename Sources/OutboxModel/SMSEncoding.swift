/// How a text travels over SMS: GSM 03.38 7-bit, or UCS-2 when any character is outside it.
public enum SMSEncoding: String, Codable, Sendable {
    case gsm7
    case ucs2

    public struct Analysis: Sendable, Equatable {
        public let encoding: SMSEncoding
        /// Septets (GSM-7) or UTF-16 code units (UCS-2).
        public let units: Int
        public let segments: Int
        /// The first character (whole grapheme, e.g. a flag or an emoji with a skin tone) that
        /// forced UCS-2, if any.
        public let forcedBy: Character?
    }

    /// GSM 03.38 basic set, one septet each.
    static let basic: Set<Unicode.Scalar> = Set(
        ("@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà"
        ).unicodeScalars)
    /// The extension table: escape + character, two septets each.
    static let extended: Set<Unicode.Scalar> = Set("^{}\\[]~|€\u{0C}".unicodeScalars)

    /// Septets per scalar for U+0000–U+00FF (0 = not in GSM-7), built once from the sets above
    /// so the hot loop is an array index instead of a hash lookup. Its first 128 entries are the
    /// ASCII table the byte loop in `analyze` reads.
    private static let latin1Septets: [UInt8] = (0..<256).map { value in
        let scalar = Unicode.Scalar(UInt8(value))
        return basic.contains(scalar) ? 1 : extended.contains(scalar) ? 2 : 0
    }

    /// Septets for a scalar: 1 basic, 2 extension (escape + character), 0 not representable.
    @inline(__always)
    static func septets(_ scalar: Unicode.Scalar) -> Int {
        septets(value: scalar.value, latin1: latin1Septets)
    }

    @inline(__always)
    private static func septets<Table: RandomAccessCollection<UInt8>>(value: UInt32, latin1: Table) -> Int
    where Table.Index == Int {
        if value < 256 { return Int(latin1[Int(value)]) }
        switch value {
        case 0x0394, 0x03A6, 0x0393, 0x039B, 0x03A9, 0x03A0, 0x03A8, 0x03A3, 0x0398, 0x039E: return 1  // Greek capitals
        case 0x20AC: return 2  // €
        default: return 0
        }
    }

    // MARK: - Analysis

    /// Decides the encoding and counts segments: one segment holds 160 septets (GSM-7) or 70
    /// UTF-16 units (UCS-2); a longer text is split into 153 / 67 per segment (the rest is the
    /// concatenation header). An extension character counts two septets and a character outside
    /// the BMP two units, and neither pair is ever split across segments — so a text can need
    /// one more segment than a plain division suggests.
    public static func analyze(_ text: String) -> Analysis {
        // Native strings are contiguous UTF-8; reading the bytes directly is about twice as fast
        // as iterating `unicodeScalars`. Anything else (a bridged string) takes the scalar path.
        if let analysis = text.utf8.withContiguousStorageIfAvailable({ analyze(utf8: $0, of: text) }) {
            return analysis
        }
        return analyzeScalars(text)
    }

    /// The byte loop behind `analyze`. GSM-7 septets are counted until the first foreign scalar;
    /// only then are UTF-16 units counted, from that point on — the GSM-7 prefix is one unit per
    /// scalar, so its share follows from the scalar count. `bytes` is valid UTF-8 (it is a
    /// `String`'s storage), so decoding checks nothing.
    private static func analyze(utf8 bytes: UnsafeBufferPointer<UInt8>, of text: String) -> Analysis {
        latin1Septets.withUnsafeBufferPointer { latin1 in
            let count = bytes.count
            var i = 0
            var scalars = 0
            var septetTotal = 0, septetSegments = 1, septetFill = 0
            // MARK: GSM-7 while it lasts
            while i < count {
                let lead = bytes[i]
                let size: Int
                let length: Int
                if lead < 0x80 {
                    size = Int(latin1[Int(lead)])
                    length = 1
                } else {
                    let (value, scalarLength) = decode(bytes, at: i, lead: lead)
                    size = septets(value: value, latin1: latin1)
                    length = scalarLength
                }
                if size == 0 { break }
                septetTotal += size
                if septetFill + size > 153 { septetSegments += 1; septetFill = 0 }
                septetFill += size
                scalars += 1
                i += length
            }
            if i == count {
                return Analysis(encoding: .gsm7, units: septetTotal, segments: septetTotal <= 160 ? 1 : septetSegments, forcedBy: nil)
            }
            // MARK: UCS-2 from the first foreign scalar
            let foreign = i
            // The prefix so far: `scalars` units of one, 67 to a segment.
            var unitTotal = scalars
            var unitSegments = scalars == 0 ? 1 : (scalars - 1) / 67 + 1
            var unitFill = scalars - (unitSegments - 1) * 67
            while i < count {
                let lead = bytes[i]
                // Continuation bytes carry no unit; a four-byte sequence is a surrogate pair.
                if lead & 0xC0 != 0x80 {
                    let units = lead >= 0xF0 ? 2 : 1
                    unitTotal += units
                    if unitFill + units > 67 { unitSegments += 1; unitFill = 0 }
                    unitFill += units
                }
                i += 1
            }
            return Analysis(encoding: .ucs2, units: unitTotal, segments: unitTotal <= 70 ? 1 : unitSegments,
                            forcedBy: character(containingScalarAt: foreign, in: text))
        }
    }

    /// Decodes the multi-byte scalar starting at `i` whose lead byte is `lead` (≥ 0x80).
    @inline(__always)
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int, lead: UInt8) -> (value: UInt32, length: Int) {
        let b1 = UInt32(bytes[i + 1] & 0x3F)
        if lead < 0xE0 { return (UInt32(lead & 0x1F) << 6 | b1, 2) }
        let b2 = UInt32(bytes[i + 2] & 0x3F)
        if lead < 0xF0 { return (UInt32(lead & 0x0F) << 12 | b1 << 6 | b2, 3) }
        let b3 = UInt32(bytes[i + 3] & 0x3F)
        return (UInt32(lead & 0x07) << 18 | b1 << 12 | b2 << 6 | b3, 4)
    }

    /// The whole character (grapheme) holding the first foreign scalar, which starts at UTF-8
    /// offset `offset` and follows only GSM-7 scalars.
    ///
    /// No GSM-7 scalar is a prepend, regional indicator, emoji, Hangul or extending mark, so by
    /// the grapheme rules (UAX #29) the foreign scalar's character starts either at that scalar
    /// or — when the foreign scalar extends its predecessor (a combining accent, say) — one
    /// scalar earlier, never further back; and a character boundary lies before that
    /// predecessor unless it is CR or LF, after which characters always break. So characters
    /// are read from the predecessor on, not from the start of the text.
    private static func character(containingScalarAt offset: Int, in text: String) -> Character? {
        let scalars = text.unicodeScalars
        let foreign = text.utf8.index(text.utf8.startIndex, offsetBy: offset)  // O(1) on native UTF-8
        var start = foreign
        if foreign > scalars.startIndex {
            let previous = scalars.index(before: foreign)
            if scalars[previous] != "\r" && scalars[previous] != "\n" { start = previous }
        }
        let tail = Substring(scalars[start...])
        guard let first = tail.first else { return nil }
        // The predecessor's own character ends before the foreign scalar: the next one is it.
        if start != foreign, tail.index(after: tail.startIndex) <= foreign {
            return tail[tail.index(after: tail.startIndex)...].first
        }
        return first
    }

    /// The reference: the same analysis over `unicodeScalars`, counting both ways in one pass.
    /// `analyze` uses it for strings without contiguous UTF-8; tests hold the byte loop to it.
    static func analyzeScalars(_ text: String) -> Analysis {
        var gsm = true
        var septetTotal = 0, septetSegments = 1, septetFill = 0
        var unitTotal = 0, unitSegments = 1, unitFill = 0
        for scalar in text.unicodeScalars {
            if gsm {
                let size = septets(scalar)
                if size == 0 {
                    gsm = false
                } else {
                    septetTotal += size
                    if septetFill + size > 153 { septetSegments += 1; septetFill = 0 }
                    septetFill += size
                }
            }
            let units = scalar.value > 0xFFFF ? 2 : 1
            unitTotal += units
            if unitFill + units > 67 { unitSegments += 1; unitFill = 0 }
            unitFill += units
        }
        if gsm {
            return Analysis(encoding: .gsm7, units: septetTotal, segments: septetTotal <= 160 ? 1 : septetSegments, forcedBy: nil)
        }
        let forcedBy = text.first { $0.unicodeScalars.contains { septets($0) == 0 } }
        return Analysis(encoding: .ucs2, units: unitTotal, segments: unitTotal <= 70 ? 1 : unitSegments, forcedBy: forcedBy)
    }
}
