/// How a text travels over SMS: GSM 03.38 7-bit, or UCS-2 when any character is outside it.
public enum SMSEncoding: String, Codable, Sendable {
    case gsm7
    case ucs2

    public struct Analysis: Sendable, Equatable {
        public let encoding: SMSEncoding
        /// Septets (GSM-7) or UTF-16 code units (UCS-2).
        public let units: Int
        public let segments: Int
        /// The first character that forced UCS-2, if any.
        public let forcedBy: Character?
    }

    /// GSM 03.38 basic set, one septet each.
    static let basic: Set<Unicode.Scalar> = Set(
        ("@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà"
        ).unicodeScalars)
    /// The extension table: escape + character, two septets each.
    static let extended: Set<Unicode.Scalar> = Set("^{}\\[]~|€\u{0C}".unicodeScalars)

    /// Decides the encoding and counts segments: 160/153 septets for GSM-7, 70/67 UTF-16 units
    /// for UCS-2 (a character outside the BMP counts two). A GSM-7 escape pair is never split
    /// across segments, and neither is a surrogate pair.
    public static func analyze(_ text: String) -> Analysis {
        var septets = 0
        var gsmSegments = 1
        var inSegment = 0
        var forcedBy: Character?
        var sizes: [Int] = []
        sizes.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if basic.contains(scalar) {
                sizes.append(1)
            } else if extended.contains(scalar) {
                sizes.append(2)
            } else {
                forcedBy = Character(scalar)
                break
            }
        }
        if forcedBy == nil {
            septets = sizes.reduce(0, +)
            if septets > 160 {
                gsmSegments = 1
                inSegment = 0
                for size in sizes {
                    if inSegment + size > 153 { gsmSegments += 1; inSegment = 0 }
                    inSegment += size
                }
            }
            return Analysis(encoding: .gsm7, units: septets, segments: gsmSegments, forcedBy: nil)
        }
        var units = 0
        for scalar in text.unicodeScalars { units += scalar.value > 0xFFFF ? 2 : 1 }
        var segments = 1
        if units > 70 {
            inSegment = 0
            for scalar in text.unicodeScalars {
                let size = scalar.value > 0xFFFF ? 2 : 1
                if inSegment + size > 67 { segments += 1; inSegment = 0 }
                inSegment += size
            }
        }
        return Analysis(encoding: .ucs2, units: units, segments: segments, forcedBy: forcedBy)
    }
}
