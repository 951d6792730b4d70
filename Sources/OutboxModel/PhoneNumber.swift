/// Phone numbers normalised to E.164 (`+` and 8 to 15 digits).
public enum PhoneNumber {
    /// Normalises `text`: spaces, dashes, dots and brackets are dropped; `00` becomes `+`; a
    /// national number (leading `0`) gets `defaultCountryCode` in place of its trunk prefix.
    public static func normalize(_ text: String, defaultCountryCode: String?) throws(OutboxError) -> String {
        let original = text.trimmingSpaces()
        var number = original.filter { !" -./()\t".contains($0) }
        if number.hasPrefix("00") { number = "+" + number.dropFirst(2) }
        if !number.hasPrefix("+") {
            guard let code = defaultCountryCode else {
                throw .data("invalid phone number '\(original)': give it in international form (+49151…) or set sms.default_country_code in the config")
            }
            let national = number.hasPrefix("0") ? String(number.dropFirst()) : number
            number = code + national
        }
        let digits = number.dropFirst()
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), !digits.hasPrefix("0"),
              (7...15).contains(digits.count) else {
            throw .data("invalid phone number '\(original)': expected E.164, a + and 7 to 15 digits (e.g. +4915112345678)")
        }
        return number
    }

    /// Country codes in config look like `+49`.
    public static func isValidCountryCode(_ code: String) -> Bool {
        code.hasPrefix("+") && (2...4).contains(code.count) && code.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
            && !code.dropFirst().hasPrefix("0")
    }
}
