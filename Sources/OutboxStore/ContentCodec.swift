import FoundationEssentials
import OutboxModel

/// JSON for the columns that hold structured content (recipient lists, headers, print specs).
enum ContentCodec {
    /// One encoder for every call: making one per message cost more than the encoding.
    /// (`JSONEncoder` is thread-safe; its options are set once here.)
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func encode<T: Encodable>(_ value: T) -> String { encodedByEncoder(value) }

    private static func encodedByEncoder<T: Encodable>(_ value: T) -> String {
        // Encoding our own value types cannot fail.
        String(decoding: try! encoder.encode(value), as: UTF8.self)
    }

    /// Recipient lists, written by hand when every address is plain printable ASCII with nothing
    /// to escape (the bulk case); byte for byte what the encoder writes, which does the rest.
    static func encode(_ recipients: Recipients) -> String {
        let lists = [("bcc", recipients.bcc), ("cc", recipients.cc), ("reply_to", recipients.replyTo), ("to", recipients.to)]
        var json = "{"
        for (number, (key, addresses)) in lists.enumerated() {
            json += number == 0 ? "\"" : ",\""
            json += key
            json += "\":["
            for (index, address) in addresses.enumerated() {
                guard address.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") })
                else { return encodedByEncoder(recipients) }
                json += index == 0 ? "\"" : ",\""
                json += address
                json += "\""
            }
            json += "]"
        }
        json += "}"
        return json
    }

    /// One decoder as well: the worker decodes every claimed message's content.
    private static let decoder = JSONDecoder()

    static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try decoder.decode(type, from: Data(text.utf8))
    }

    /// Recipient lists read back for every claimed mail: through the model's JSON parser
    /// (several times faster than `JSONDecoder` for this flat shape), the decoder as fallback.
    static func decodeRecipients(_ text: String) throws -> Recipients {
        var text = text
        let parsed = text.withUTF8 { try? JSONValue.parse(UnsafeRawBufferPointer($0)) }
        if case .object(let members)? = parsed {
            func list(_ key: String) -> [String]? {
                guard let value = members[key] else { return [] }
                guard case .array(let items) = value else { return nil }
                var strings: [String] = []
                for item in items {
                    guard case .string(let s) = item else { return nil }
                    strings.append(s)
                }
                return strings
            }
            if let to = list("to"), let cc = list("cc"), let bcc = list("bcc"), let replyTo = list("reply_to") {
                return Recipients(to: to, cc: cc, bcc: bcc, replyTo: replyTo)
            }
        }
        return try decode(Recipients.self, text)
    }

    struct Recipients: Codable {
        var to: [String]
        var cc: [String]
        var bcc: [String]
        var replyTo: [String]
        enum CodingKeys: String, CodingKey { case to, cc, bcc, replyTo = "reply_to" }
    }
}
