@testable import OutboxModel
import Testing

@Suite struct SMSEncodingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let label: String
        let text: String
        let encoding: SMSEncoding
        let units: Int
        let segments: Int
        var forcedBy: Character? = nil
        var testDescription: String { label }
    }

    static let table: [Case] = [
        Case(label: "empty", text: "", encoding: .gsm7, units: 0, segments: 1),
        Case(label: "plain ASCII", text: "Hello, world!", encoding: .gsm7, units: 13, segments: 1),
        Case(label: "GSM accents and Greek", text: "Grüße àèéìòù ÄÖÑÜ ΔΦΓΛΩΠΨΣΘΞ", encoding: .gsm7, units: 28, segments: 1),
        Case(label: "160 septets fit one segment", text: String(repeating: "a", count: 160), encoding: .gsm7, units: 160, segments: 1),
        Case(label: "161 septets need two", text: String(repeating: "a", count: 161), encoding: .gsm7, units: 161, segments: 2),
        Case(label: "306 septets fill two exactly", text: String(repeating: "a", count: 306), encoding: .gsm7, units: 306, segments: 2),
        Case(label: "307 septets need three", text: String(repeating: "a", count: 307), encoding: .gsm7, units: 307, segments: 3),
        Case(label: "each extension char counts two", text: "^{}\\[]~|€", encoding: .gsm7, units: 18, segments: 1),
        Case(label: "80 euro signs are exactly 160 septets", text: String(repeating: "€", count: 80), encoding: .gsm7, units: 160, segments: 1),
        Case(label: "159 + one extension char overflows", text: String(repeating: "a", count: 159) + "€", encoding: .gsm7, units: 161, segments: 2),
        // 152 + € would straddle 153: the escape pair moves whole to segment two.
        Case(label: "extension char at the segment boundary", text: String(repeating: "a", count: 152) + "€" + String(repeating: "a", count: 10),
             encoding: .gsm7, units: 164, segments: 2),
        Case(label: "pairs never split push a third segment", text: String(repeating: "a", count: 152) + "€" + String(repeating: "a", count: 152) + "€",
             encoding: .gsm7, units: 308, segments: 3),
        Case(label: "CR LF are basic", text: "line\r\nnext", encoding: .gsm7, units: 10, segments: 1),
        Case(label: "a lowercase ç forces UCS-2 (only Ç is GSM)", text: "ça va", encoding: .ucs2, units: 5, segments: 1, forcedBy: "ç"),
        Case(label: "Japanese", text: "日本語のテキスト", encoding: .ucs2, units: 8, segments: 1, forcedBy: "日"),
        Case(label: "70 UCS-2 units fit one", text: String(repeating: "日", count: 70), encoding: .ucs2, units: 70, segments: 1),
        Case(label: "71 UCS-2 units need two", text: String(repeating: "日", count: 71), encoding: .ucs2, units: 71, segments: 2),
        Case(label: "134 fill two exactly", text: String(repeating: "日", count: 134), encoding: .ucs2, units: 134, segments: 2),
        Case(label: "an emoji is a surrogate pair", text: "Hi 😀", encoding: .ucs2, units: 5, segments: 1, forcedBy: "😀"),
        Case(label: "35 emoji are exactly 70 units", text: String(repeating: "😀", count: 35), encoding: .ucs2, units: 70, segments: 1),
        // 66 units + an emoji would straddle 67: the pair moves whole to segment two.
        Case(label: "surrogate pair at the segment boundary", text: String(repeating: "日", count: 66) + "😀" + "日",
             encoding: .ucs2, units: 69, segments: 1),
        Case(label: "surrogate pair at the boundary of a long text", text: String(repeating: "日", count: 66) + "😀" + String(repeating: "日", count: 10),
             encoding: .ucs2, units: 78, segments: 2),
        Case(label: "pairs never split push a third segment", text: String(repeating: "日", count: 66) + "😀" + String(repeating: "日", count: 65) + "😀",
             encoding: .ucs2, units: 135, segments: 3),
        Case(label: "mixed scripts: Latin, Cyrillic, Arabic", text: "Hello Привет مرحبا", encoding: .ucs2, units: 18, segments: 1, forcedBy: "П"),
        Case(label: "extension chars count one unit in UCS-2", text: "{€} 日", encoding: .ucs2, units: 5, segments: 1, forcedBy: "日"),
        Case(label: "a flag is reported whole", text: "Go 🇩🇪!", encoding: .ucs2, units: 8, segments: 1, forcedBy: "🇩🇪"),
        Case(label: "a skin-tone emoji is reported whole", text: "ok 👍🏽", encoding: .ucs2, units: 7, segments: 1, forcedBy: "👍🏽"),
        Case(label: "a combining accent forces UCS-2", text: "e\u{301}", encoding: .ucs2, units: 2, segments: 1, forcedBy: "e\u{301}"),
        Case(label: "a tab is not GSM-7", text: "a\tb", encoding: .ucs2, units: 3, segments: 1, forcedBy: "\t"),
        // The byte loop: ASCII by table, other scalars decoded, UCS-2 counted from the first
        // foreign scalar on, the character found from the scalar before it.
        Case(label: "a backtick is ASCII but not GSM-7", text: "a`b", encoding: .ucs2, units: 3, segments: 1, forcedBy: "`"),
        Case(label: "two-byte GSM before a two-byte foreign char", text: "ü ç", encoding: .ucs2, units: 3, segments: 1, forcedBy: "ç"),
        Case(label: "a combining accent after a GSM prefix takes its base along", text: "Cafe\u{301} ok", encoding: .ucs2, units: 8,
             segments: 1, forcedBy: "e\u{301}"),
        Case(label: "a combining accent after LF stands alone", text: "a\n\u{301}", encoding: .ucs2, units: 3, segments: 1,
             forcedBy: "\u{301}"),
        Case(label: "a combining accent after CR stands alone", text: "a\r\u{301}", encoding: .ucs2, units: 3, segments: 1,
             forcedBy: "\u{301}"),
        Case(label: "a ZWJ family is reported whole", text: "Hi 👨‍👩‍👧!", encoding: .ucs2, units: 12, segments: 1, forcedBy: "👨‍👩‍👧"),
        Case(label: "a long GSM prefix counts in UCS-2 units", text: String(repeating: "a", count: 140) + "日", encoding: .ucs2,
             units: 141, segments: 3, forcedBy: "日"),
        Case(label: "a GSM prefix filling two segments pushes a pair to a third", text: String(repeating: "ä", count: 134) + "😀",
             encoding: .ucs2, units: 136, segments: 3, forcedBy: "😀"),
        Case(label: "three-byte GSM (€) and Greek in a long text", text: String(repeating: "Δ€", count: 60), encoding: .gsm7,
             units: 180, segments: 2),
    ]

    @Test(arguments: table)
    func analyze(_ c: Case) {
        let analysis = SMSEncoding.analyze(c.text)
        #expect(analysis.encoding == c.encoding)
        #expect(analysis.units == c.units)
        #expect(analysis.segments == c.segments)
        if c.encoding == .gsm7 {
            #expect(analysis.forcedBy == nil)
        } else {
            // Cases that name no character are about counting; their first character forces it.
            #expect(analysis.forcedBy == (c.forcedBy ?? c.text.first))
        }
    }

    /// The byte loop against the scalar reference, over random texts mixing every kind of
    /// character the two paths treat differently.
    @Test func theByteLoopAgreesWithTheScalarReference() {
        let pieces: [String] = [
            // GSM-7 first (16), then foreign.
            "a", "Z", " ", "0", "\n", "\r", "\r\n", "{", "€", "^", "ü", "Ç", "Δ", "Ω", "é", "¤",
            "\t", "`", "ç", "日", "П", "م", "😀", "👍🏽", "🇩🇪", "👨‍👩‍👧", "\u{301}", "\u{200D}", "e\u{301}", "\u{FEFF}", "𝄞",
        ]
        var random = SplitMix64(seed: 0x5EED)
        for _ in 0..<3000 {
            let length = Int(random.next() % 200)
            // Mostly GSM-7 so the foreign scalar lands at every depth, including past a segment.
            var text = ""
            for _ in 0..<length {
                let r = Int(random.next() % 100)
                text += r < 98 ? pieces[r % 16] : pieces[Int(random.next() % UInt64(pieces.count))]
            }
            #expect(SMSEncoding.analyze(text) == SMSEncoding.analyzeScalars(text), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func theLatin1TableAgreesWithTheSets() {
        for value in 0..<0x2100 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let expected = SMSEncoding.basic.contains(scalar) ? 1 : SMSEncoding.extended.contains(scalar) ? 2 : 0
            #expect(SMSEncoding.septets(scalar) == expected, "U+\(String(value, radix: 16))")
        }
        #expect(SMSEncoding.septets("€") == 2)
    }

    @Test func contentStoresTheAnalysis() {
        let sms = SMSContent(recipient: "+4915112345678", body: String(repeating: "日", count: 71))
        #expect(sms.encoding == .ucs2)
        #expect(sms.segments == 2)
    }
}

/// A small seeded generator, so a failing random text can be reproduced.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E4B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
