/// A message as composed, before it is stored.
public struct NewMessage: Sendable {
    public var content: MessageContent
    /// `.queued` (the default) or `.draft`.
    public var state: MessageState
    /// Sink or printer name; `nil` means the channel default.
    public var destination: String?
    public var priority: Int
    /// Not to be sent before this time (`--at`).
    public var notBefore: Milliseconds?
    /// `--key`: the same key again returns the existing message instead of a new one.
    public var idempotencyKey: String?
    public var files: [NewAttachment]
    public var retry: RetryPolicy

    public init(content: MessageContent, state: MessageState = .queued, destination: String? = nil, priority: Int = 0,
                notBefore: Milliseconds? = nil, idempotencyKey: String? = nil, files: [NewAttachment] = [],
                retry: RetryPolicy? = nil) {
        self.content = content
        self.state = state
        self.destination = destination
        self.priority = priority
        self.notBefore = notBefore
        self.idempotencyKey = idempotencyKey
        self.files = files
        self.retry = retry ?? .defaults(for: content.channel)
    }

    public var channel: Channel { content.channel }
}

/// A file to store with a new message, read from `path` in chunks.
public struct NewAttachment: Sendable, Equatable {
    public var path: String
    public var role: AttachmentRole
    public var filename: String
    public var mimeType: String

    public init(path: String, role: AttachmentRole = .attachment, filename: String, mimeType: String) {
        self.path = path
        self.role = role
        self.filename = filename
        self.mimeType = mimeType
    }
}
