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

/// The `print_result` row.
public struct StoredPrintResult: Sendable, Equatable {
    public var cupsJobID: Int?
    public var printer: String?
    public var jobState: String?
    public var stateReasons: String?
    public var pages: Int?
    public var pdfPath: String?
    public var pdfSHA256: String?
    public var updatedAt: Milliseconds

    public init(cupsJobID: Int? = nil, printer: String? = nil, jobState: String? = nil, stateReasons: String? = nil,
                pages: Int? = nil, pdfPath: String? = nil, pdfSHA256: String? = nil, updatedAt: Milliseconds) {
        self.cupsJobID = cupsJobID
        self.printer = printer
        self.jobState = jobState
        self.stateReasons = stateReasons
        self.pages = pages
        self.pdfPath = pdfPath
        self.pdfSHA256 = pdfSHA256
        self.updatedAt = updatedAt
    }
}
