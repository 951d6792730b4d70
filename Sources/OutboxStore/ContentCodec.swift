import Foundation
import OutboxModel

/// JSON for the columns that hold structured content (recipient lists, headers, print specs).
enum ContentCodec {
    static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding our own value types cannot fail.
        return String(decoding: try! encoder.encode(value), as: UTF8.self)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }

    struct Recipients: Codable {
        var to: [String]
        var cc: [String]
        var bcc: [String]
        var replyTo: [String]
        enum CodingKeys: String, CodingKey { case to, cc, bcc, replyTo = "reply_to" }
    }
}
