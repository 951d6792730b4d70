import OutboxModel

/// Everything `show` prints about one message.
public struct MessageDetail: Sendable {
    public var summary: MessageSummary
    public var content: MessageContent
    public var attachments: [AttachmentInfo]
    public var attempts: [AttemptRecord]
    public var printResult: StoredPrintResult?
    public var deadline: Milliseconds?
    public var leaseOwner: String?
    public var leaseUntil: Milliseconds?
}

/// The `print_result` row: the print result and when it was last updated. Its fields read as
/// the result's own (`stored.pages`).
@dynamicMemberLookup
public struct StoredPrintResult: Sendable, Equatable {
    public var result: PrintResult
    public var updatedAt: Milliseconds

    public init(_ result: PrintResult, updatedAt: Milliseconds) {
        self.result = result
        self.updatedAt = updatedAt
    }

    public subscript<T>(dynamicMember keyPath: KeyPath<PrintResult, T>) -> T { result[keyPath: keyPath] }
}
