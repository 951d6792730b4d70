/// What a message's stored file is for.
public enum AttachmentRole: String, Codable, Sendable, CaseIterable {
    /// A mail attachment.
    case attachment
    /// A print item printed as it is (PDF or image).
    case item
    /// A TTF/OTF font file used by a print formatter.
    case font
    /// An image or PDF drawn by a print formatter.
    case image
    /// The PDF a print job was rendered to, kept so a resubmission reprints the same pages.
    case rendered
}

/// A stored file of a message; its bytes live in a content-addressed blob.
public struct AttachmentInfo: Codable, Sendable, Equatable {
    public var position: Int
    public var role: AttachmentRole
    public var filename: String
    public var mimeType: String
    public var size: Int
    public var sha256: String

    public init(position: Int, role: AttachmentRole, filename: String, mimeType: String, size: Int, sha256: String) {
        self.position = position
        self.role = role
        self.filename = filename
        self.mimeType = mimeType
        self.size = size
        self.sha256 = sha256
    }

    enum CodingKeys: String, CodingKey { case position, role, filename, mimeType = "mime_type", size, sha256 }
}
