import OutboxEngine
import OutboxModel

/// One SMS as JSON, as the directory sink captures it and the webhook sink posts it. The two
/// differ only where their readers do: the capture carries `created_at` and leaves out an
/// unset sender; the webhook always has a `from` (null when the gateway picks the sender).
struct SMSMessageJSON: Encodable {
    var id: Int64
    var uid: String
    var to: String
    var from: String?
    var body: String
    var encoding: SMSEncoding
    var segments: Int
    var createdAt: String?
    var fromAlwaysPresent = false

    init(_ delivery: Delivery, _ sms: SMSContent, createdAt: String? = nil, fromAlwaysPresent: Bool = false) {
        id = delivery.messageID
        uid = delivery.uid
        to = sms.recipient
        from = sms.sender
        body = sms.body
        encoding = sms.encoding
        segments = sms.segments
        self.createdAt = createdAt
        self.fromAlwaysPresent = fromAlwaysPresent
    }

    enum CodingKeys: String, CodingKey { case id, uid, to, from, body, encoding, segments, createdAt = "created_at" }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(uid, forKey: .uid)
        try c.encode(to, forKey: .to)
        if fromAlwaysPresent { try c.encode(from, forKey: .from) } else { try c.encodeIfPresent(from, forKey: .from) }
        try c.encode(body, forKey: .body)
        try c.encode(encoding, forKey: .encoding)
        try c.encode(segments, forKey: .segments)
        try c.encodeIfPresent(createdAt, forKey: .createdAt)
    }
}
