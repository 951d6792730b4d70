import Foundation
import OutboxModel
import Testing

@Suite("Timestamps and durations")
struct TimestampTests {
    static let now: Milliseconds = 1_767_225_600_000 // 2026-01-01T00:00:00Z

    static func local(_ text: String, _ format: String) -> Milliseconds {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = format
        return Timestamp.milliseconds(formatter.date(from: text)!)
    }

    static let cases: [(String, Milliseconds)] = [
        ("2026-12-01T09:00:00Z", 1_796_115_600_000),
        ("2026-12-01T09:00:00.250Z", 1_796_115_600_250),
        ("2026-12-01T10:00:00+01:00", 1_796_115_600_000),
        ("@1767225600", 1_767_225_600_000),
        ("now", now),
        ("+10m", now + 600_000),
        ("+90s", now + 90_000),
        ("-2h", now - 7_200_000),
        ("7d", now - 7 * 86_400_000),
        ("2w", now - 14 * 86_400_000),
        ("  +1h  ", now + 3_600_000),
    ]

    @Test(arguments: cases)
    func parsesAbsoluteAndRelativeTimes(text: String, expected: Milliseconds) {
        #expect(Timestamp.parse(text, now: Self.now) == expected)
    }

    @Test func localTimesUseTheLocalZone() {
        #expect(Timestamp.parse("2026-12-01 09:00", now: Self.now) == Self.local("2026-12-01 09:00", "yyyy-MM-dd HH:mm"))
        #expect(Timestamp.parse("2026-12-01T09:00:30", now: Self.now) == Self.local("2026-12-01T09:00:30", "yyyy-MM-dd'T'HH:mm:ss"))
        #expect(Timestamp.parse("2026-12-01", now: Self.now) == Self.local("2026-12-01", "yyyy-MM-dd"))
    }

    @Test func bareDurationFollowsTheGivenSign() {
        #expect(Timestamp.parse("10m", now: Self.now, relativeSign: 1) == Self.now + 600_000)
        #expect(Timestamp.parse("10m", now: Self.now, relativeSign: -1) == Self.now - 600_000)
    }

    @Test(arguments: ["", "tomorrow", "2026-13-45", "12:00", "+", "10x", "@abc", "12:00:00"])
    func rejectsWhatIsNotATime(text: String) {
        #expect(Timestamp.parse(text, now: Self.now) == nil)
    }

    @Test func iso8601OutputIsUTCWithMilliseconds() {
        #expect(Timestamp.iso8601(1_796_115_600_250) == "2026-12-01T09:00:00.250Z")
        #expect(Timestamp.parse(Timestamp.iso8601(1_796_115_600_250)) == 1_796_115_600_250)
    }

    @Test func durations() {
        #expect(DurationText.milliseconds("30d") == Milliseconds(30 * 86_400_000))
        #expect(DurationText.milliseconds("12h") == Milliseconds(12 * 3_600_000))
        #expect(DurationText.milliseconds("1.5m") == Milliseconds(90_000))
        #expect(DurationText.milliseconds("45") == Milliseconds(45_000))
        #expect(DurationText.milliseconds("-5m") == nil)
        #expect(DurationText.milliseconds("d") == nil)
        #expect(DurationText.milliseconds("") == nil)
    }
}

@Suite("E-mail addresses")
struct EmailAddressTests {
    @Test(arguments: [
        ("ada@example.org", "ada@example.org", nil as String?),
        ("Ada Lovelace <ada@example.org>", "ada@example.org", "Ada Lovelace"),
        ("\"Lovelace, Ada\" <ada@example.org>", "ada@example.org", "Lovelace, Ada"),
        ("  ada@example.org  ", "ada@example.org", nil),
        ("first.last+tag@sub.example.co.uk", "first.last+tag@sub.example.co.uk", nil),
        ("o'brien@example.ie", "o'brien@example.ie", nil),
        ("\"john doe\"@example.org", "\"john doe\"@example.org", nil),
        ("user@[192.0.2.1]", "user@[192.0.2.1]", nil),
        ("jörg@bücher.example", "jörg@bücher.example", nil),
        ("x@localhost", "x@localhost", nil),
    ])
    func valid(text: String, address: String, name: String?) throws {
        let parsed = try EmailAddress(parsing: text)
        #expect(parsed.address == address)
        #expect(parsed.displayName == name)
    }

    @Test(arguments: [
        "", "ada", "ada@", "@example.org", "ada@@example.org", "ada example@example.org", "ada..x@example.org",
        ".ada@example.org", "ada.@example.org", "ada@example..org", "ada@-example.org", "ada@example-.org",
        "ada@exa mple.org", "Ada <ada@example.org", "ada@example.org\r\nBcc: victim@example.org",
        "ada@example.org\n", "ada\0@example.org", String(repeating: "a", count: 65) + "@example.org",
        "ada@" + String(repeating: "b", count: 64) + ".org",
    ])
    func invalid(text: String) {
        let error = #expect(throws: OutboxError.self) { _ = try EmailAddress(parsing: text) }
        #expect(error?.code == .dataError)
    }

    @Test func descriptionRoundTrips() throws {
        let address = try EmailAddress(parsing: "Ada Lovelace <ada@example.org>")
        #expect(address.description == "Ada Lovelace <ada@example.org>")
        #expect(try EmailAddress(parsing: address.description) == address)
    }

    @Test(arguments: ["line\rbreak", "line\nbreak", "nul\0byte", "\r\n"])
    func headerTextRefusesCRLFAndNUL(text: String) {
        #expect(throws: OutboxError.self) { try HeaderText.checkSafe(text, field: "subject") }
    }

    @Test func headerTextAcceptsOrdinaryText() throws {
        try HeaderText.checkSafe("Grüße — tabs\tand émoji ✉︎", field: "subject")
    }
}

@Suite("Phone numbers")
struct PhoneNumberTests {
    @Test(arguments: [
        ("+4915112345678", nil as String?, "+4915112345678"),
        ("+49 151 1234 5678", nil, "+4915112345678"),
        ("+49 (151) 1234-5678", nil, "+4915112345678"),
        ("+1.415.555.0123", nil, "+14155550123"),
        ("004915112345678", nil, "+4915112345678"),
        ("0151 12345678", "+49", "+4915112345678"),
        ("15112345678", "+49", "+4915112345678"),
        ("+44 20 7946 0958", "+49", "+442079460958"),
    ])
    func normalisesToE164(text: String, country: String?, expected: String) throws {
        #expect(try PhoneNumber.normalize(text, defaultCountryCode: country) == expected)
    }

    @Test(arguments: [
        ("0151 12345678", nil as String?),  // national without a default country code
        ("", "+49"),
        ("+", nil),
        ("+49 151 CALL ME", nil),
        ("+123", nil),                      // too short
        ("+1234567890123456", nil),         // 16 digits: too long
        ("+0151234567", nil),               // country codes never start with 0
        ("+49151１２３４５６７", nil),        // full-width digits
        ("+4915112345678\n", nil),
    ])
    func refusesInvalidNumbers(text: String, country: String?) {
        let error = #expect(throws: OutboxError.self) { _ = try PhoneNumber.normalize(text, defaultCountryCode: country) }
        #expect(error?.code == .dataError)
    }

    @Test func countryCodes() {
        #expect(PhoneNumber.isValidCountryCode("+49"))
        #expect(PhoneNumber.isValidCountryCode("+1"))
        #expect(PhoneNumber.isValidCountryCode("+358"))
        #expect(!PhoneNumber.isValidCountryCode("49"))
        #expect(!PhoneNumber.isValidCountryCode("+0"))
        #expect(!PhoneNumber.isValidCountryCode("+12345"))
    }
}

@Suite("Document types and spelling")
struct DocumentTypeTests {
    @Test func sniffsByContentNotName() {
        #expect(DocumentType.sniff(Array("%PDF-1.7\n%âãÏÓ".utf8)) == .pdf)
        #expect(DocumentType.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) == .png)
        #expect(DocumentType.sniff([0xFF, 0xD8, 0xFF, 0xE0, 0, 16]) == .jpeg)
        #expect(DocumentType.sniff(Array("Dear Ada,\nthe minutes are attached.\n".utf8)) == .text)
        #expect(DocumentType.sniff(Array("Grüße\n".utf8)) == .text)
        // A UTF-8 sequence cut at the end of the sniffed head is still text.
        #expect(DocumentType.sniff(Array("abc".utf8) + [0xC3]) == .text)
    }

    @Test func unknownTypes() {
        #expect(DocumentType.sniff([]) == nil)
        #expect(DocumentType.sniff([0x50, 0x4B, 0x03, 0x04, 0, 0, 0, 0]) == nil)   // zip
        #expect(DocumentType.sniff([0xFF, 0xFE, 0x41, 0x00]) == nil)                // UTF-16
        #expect(DocumentType.sniff(Array(repeating: 0x01, count: 100)) == nil)      // control bytes
        #expect(DocumentType.sniff([0xC3, 0x28, 0x41, 0x42]) == nil)                // invalid UTF-8
    }

    @Test func spellingSuggestsCloseWords() {
        #expect(Spelling.closest(to: "stat", in: ["state", "channel", "since"]) == "state")
        #expect(Spelling.closest(to: "faild", in: MessageState.allCases.map(\.rawValue)) == "failed")
        #expect(Spelling.closest(to: "mial", in: ["mail", "sms", "print"]) == "mail")
        #expect(Spelling.closest(to: "xyzzy", in: ["mail", "sms", "print"]) == nil)
        #expect(Spelling.distance("kitten", "sitting") == 3)
    }
}
