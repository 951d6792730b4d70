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
    /// so the hot loop is an array index instead of a hash lookup.
    private static let latin1Septets: [UInt8] = (0..<256).map { value in
        let scalar = Unicode.Scalar(UInt8(value))
        return basic.contains(scalar) ? 1 : extended.contains(scalar) ? 2 : 0
    }

    /// Septets for a scalar: 1 basic, 2 extension (escape + character), 0 not representable.
    @inline(__always)
    static func septets(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 256 { return Int(latin1Septets[Int(value)]) }
        switch value {
        case 0x0394, 0x03A6, 0x0393, 0x039B, 0x03A9, 0x03A0, 0x03A8, 0x03A3, 0x0398, 0x039E: return 1  // Greek capitals
        case 0x20AC: return 2  // €
        default: return 0
        }
    }

    /// Decides the encoding and counts segments: one segment holds 160 septets (GSM-7) or 70
    /// UTF-16 units (UCS-2); a longer text is split into 153 / 67 per segment (the rest is the
    /// concatenation header). An extension character counts two septets and a character outside
    /// the BMP two units, and neither pair is ever split across segments — so a text can need
    /// one more segment than a plain division suggests.
    public static func analyze(_ text: String) -> Analysis {
        // One pass counts both ways; the GSM-7 count is dropped at the first foreign scalar.
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
