import OutboxModel

/// What a successful `deliver` returns.
public struct DeliveryReceipt: Sendable, Equatable {
    public enum Outcome: String, Sendable { case sent, submitted }

    /// `sent`: done. `submitted`: accepted, the final outcome comes later through `followUp`
    /// or a `DeliveryReport`.
    public var outcome: Outcome
    /// SMTP queue id, gateway message id, CUPS job id, or the file written.
    public var remoteID: String?
    /// Protocol-level code, e.g. `smtp 250 2.0.0`, `http 202`, `ipp successful-ok`.
    public var code: String?
    /// Human detail: the server's final reply, the path written, per-recipient outcomes.
    public var detail: String?
    /// For print jobs: what was printed or written.
    public var printResult: PrintResult?
    /// A file to keep with the message (the rendered PDF of a print job), stored as a blob.
    public var keep: KeptFile?

    public init(outcome: Outcome, remoteID: String? = nil, code: String? = nil, detail: String? = nil,
                printResult: PrintResult? = nil, keep: KeptFile? = nil) {
        self.outcome = outcome
        self.remoteID = remoteID
        self.code = code
        self.detail = detail
        self.printResult = printResult
        self.keep = keep
    }
}

/// A file a sink produced that must be stored with the message.
public struct KeptFile: Sendable, Equatable {
    public var path: String
    public var role: AttachmentRole
    public var filename: String
    public var mimeType: String
    /// A scratch file the worker deletes once it is stored (a CUPS job's rendering); `false`
    /// for a file that is itself the output (the PDF sink's).
    public var isTemporary: Bool
    public init(path: String, role: AttachmentRole, filename: String, mimeType: String, isTemporary: Bool = false) {
        self.path = path
        self.role = role
        self.filename = filename
        self.mimeType = mimeType
        self.isTemporary = isTemporary
    }
}
