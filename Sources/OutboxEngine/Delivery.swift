import OutboxModel

/// Everything a sink needs to deliver one message. Attachments are not loaded: open them
/// through `files`, chunk by chunk.
public struct Delivery: Sendable {
    public let messageID: Int64
    /// Stable across retries: the mail Message-ID, the gateway/CUPS reference.
    public let uid: String
    /// Sink or printer name chosen at compose time; `nil` means the channel default.
    public let destination: String?
    /// 1 for the first attempt.
    public let attemptNumber: Int
    public let content: MessageContent
    public let attachments: [AttachmentInfo]
    public let files: any AttachmentSource
    public let createdAt: Milliseconds

    public init(messageID: Int64, uid: String, destination: String?, attemptNumber: Int, content: MessageContent,
                attachments: [AttachmentInfo], files: any AttachmentSource, createdAt: Milliseconds) {
        self.messageID = messageID
        self.uid = uid
        self.destination = destination
        self.attemptNumber = attemptNumber
        self.content = content
        self.attachments = attachments
        self.files = files
        self.createdAt = createdAt
    }

    public var channel: Channel { content.channel }
}

/// Opens the stored bytes of a message's attachments.
public protocol AttachmentSource: Sendable {
    /// A reader for the attachment at `position` of message `messageID`.
    func open(messageID: Int64, position: Int) throws -> any ByteStream
}

/// Pull-based reading in chunks (what curl's read callback and file copies want).
public protocol ByteStream: AnyObject {
    /// Total size in bytes.
    var size: Int { get }
    /// Fills up to `buffer.count` bytes; returns 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// Releases the underlying handle (also done on deinit).
    func close()
}
