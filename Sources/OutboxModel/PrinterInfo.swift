/// One CUPS destination for `outbox printers`.
public struct PrinterInfo: Sendable, Equatable, Codable {
    public var name: String
    public var isDefault: Bool
    public var info: String?
    public var location: String?
    /// idle, processing or stopped.
    public var state: String
    public var stateReasons: String
    public var acceptingJobs: Bool
    public var duplex: Bool
    public var color: Bool
    public var media: [String]

    public init(name: String, isDefault: Bool, info: String?, location: String?, state: String, stateReasons: String,
                acceptingJobs: Bool, duplex: Bool, color: Bool, media: [String]) {
        self.name = name
        self.isDefault = isDefault
        self.info = info
        self.location = location
        self.state = state
        self.stateReasons = stateReasons
        self.acceptingJobs = acceptingJobs
        self.duplex = duplex
        self.color = color
        self.media = media
    }

    enum CodingKeys: String, CodingKey {
        case name, isDefault = "default", info, location, state, stateReasons = "state_reasons"
        case acceptingJobs = "accepting_jobs", duplex, color, media
    }
}
