import FoundationEssentials

/// The whole configuration. Every key is optional: `Config()` is the embedded default, which
/// captures mail and SMS to directories and renders print jobs to PDF, so the tool works on a
/// fresh machine with no server.
public struct Config: Sendable, Equatable {
    public var database: String?
    public var worker = WorkerConfig()
    public var retry: [Channel: RetryPolicy] = Dictionary(uniqueKeysWithValues: Channel.allCases.map { ($0, .defaults(for: $0)) })
    public var mail = MailConfig()
    public var sms = SMSConfig()
    public var print = PrintConfig()

    public init() {}

    public func retryPolicy(_ channel: Channel) -> RetryPolicy { retry[channel] ?? .defaults(for: channel) }
}

public struct WorkerConfig: Sendable, Equatable {
    public var concurrency: [Channel: Int] = [.mail: 4, .sms: 2, .print: 1]
    public var leaseSeconds: Double = 60
    public var maxLostLeases: Int = 3
    public var shutdownGraceSeconds: Double = 30
    /// A delivery still running after this is abandoned as a transient timeout.
    public var deliveryTimeoutSeconds: Double = 300
    public init() {}
}

public struct MailConfig: Sendable, Equatable {
    public enum Sink: String, Sendable, CaseIterable { case smtp, directory }
    public var sink: Sink = .directory
    /// Default From when a mail names none.
    public var from: String?
    public var smtp: SMTPConfig?
    public var directory = Paths.defaultOutput("mail")
    public init() {}
}

public struct SMTPConfig: Sendable, Equatable {
    public enum StartTLS: String, Sendable, CaseIterable { case required, opportunistic, off }
    public var url: String
    public var startTLS: StartTLS = .required
    public var caFile: String?
    public var username: String?
    public var password = SecretReference()
    public var helo: String?
    public var connectTimeoutSeconds: Double = 10
    public var timeoutSeconds: Double = 120
    public var maxMessagesPerConnection: Int = 100
    public var insecureSkipVerify = false
    public init(url: String) { self.url = url }
}

public struct SMSConfig: Sendable, Equatable {
    public enum Sink: String, Sendable, CaseIterable { case kannel, twilio, webhook, directory }
    public var sink: Sink = .directory
    public var defaultCountryCode: String?
    public var kannel: KannelConfig?
    public var twilio: TwilioConfig?
    public var webhook: WebhookConfig?
    public var directory = Paths.defaultOutput("sms")
    public init() {}
}

public struct KannelConfig: Sendable, Equatable {
    public var url: String
    public var username: String?
    public var password = SecretReference()
    public var from: String?
    /// `host:port` the worker listens on for delivery reports.
    public var dlrListen: String?
    public init(url: String) { self.url = url }
}

public struct TwilioConfig: Sendable, Equatable {
    public var baseURL = "https://api.twilio.com"
    public var accountSID: String
    public var authToken = SecretReference()
    public var from: String?
    public var messagingServiceSID: String?
    /// Where Twilio posts status changes; each request carries the message uid as `?uid=`.
    public var statusCallbackURL: String?
    public init(accountSID: String) { self.accountSID = accountSID }
}

public struct WebhookConfig: Sendable, Equatable {
    public var url: String
    /// Header name → environment variable holding its value.
    public var headersEnv: [String: String] = [:]
    public init(url: String) { self.url = url }
}

public struct PrintConfig: Sendable, Equatable {
    /// `pdf` or a CUPS queue name.
    public var defaultDestination = "pdf"
    public var pdfDirectory = Paths.defaultOutput("pdf")
    /// CUPS server: a socket path or host[:port]; `nil` uses libcups' own default.
    public var cupsServer: String?
    public var defaults = PrintDefaults()
    public init() {}
}

public struct PrintDefaults: Sendable, Equatable {
    public var paper = "A4"
    public var font = "DejaVu Serif 11"
    public var lineSpacing: Double = 1.2
    public init() {}
}
