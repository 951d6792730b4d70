/// What a print job produced: a CUPS job and its state, or a PDF written to a directory. Sinks
/// report it; the store keeps it as the `print_result` row.
public struct PrintResult: Sendable, Equatable, Codable {
    public var cupsJobID: Int?
    public var printer: String?
    /// IPP job state name: pending, held, processing, stopped, canceled, aborted, completed.
    public var jobState: String?
    public var stateReasons: String?
    public var pages: Int?
    public var pdfPath: String?
    public var pdfSHA256: String?

    public init(cupsJobID: Int? = nil, printer: String? = nil, jobState: String? = nil, stateReasons: String? = nil,
                pages: Int? = nil, pdfPath: String? = nil, pdfSHA256: String? = nil) {
        self.cupsJobID = cupsJobID
        self.printer = printer
        self.jobState = jobState
        self.stateReasons = stateReasons
        self.pages = pages
        self.pdfPath = pdfPath
        self.pdfSHA256 = pdfSHA256
    }

    enum CodingKeys: String, CodingKey {
        case cupsJobID = "cups_job_id", printer, jobState = "job_state", stateReasons = "state_reasons", pages
        case pdfPath = "pdf_path", pdfSHA256 = "pdf_sha256"
    }
}
