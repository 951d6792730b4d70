import FoundationEssentials

extension Config {
    /// Loads and strictly checks a config file: unknown keys, wrong types and inline secrets are
    /// errors naming the key path (exit 78).
    public static func load(path: String) throws(OutboxError) -> Config {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .config("cannot read config file \(path): it does not exist or is not readable")
        }
        return try parse(data, source: path)
    }

    public static func parse(_ data: Data, source: String = "config") throws(OutboxError) -> Config {
        let json: JSONValue
        do { json = try JSONValue.parse(data) } catch {
            throw .config("\(source) is not valid JSON: \(Self.describe(error))")
        }
        let fail: @Sendable (String) -> OutboxError = { .config("\(source): \($0)") }
        var root = try JSONObjectReader(json, path: "", makeError: fail)
        var config = Config()
        if let database = try root.string("database") { config.database = Paths.expand(database) }
        if var worker = try root.object("worker") { try config.worker.read(&worker) }
        if var retry = try root.object("retry") {
            for channel in Channel.allCases {
                if var policy = try retry.object(channel.rawValue) {
                    config.retry[channel] = try RetryPolicy.read(&policy, defaults: .defaults(for: channel))
                }
            }
            try retry.finish()
        }
        if var mail = try root.object("mail") { try config.mail.read(&mail) }
        if var sms = try root.object("sms") { try config.sms.read(&sms) }
        if var print = try root.object("print") { try config.print.read(&print) }
        try root.finish()
        return config
    }

    static func describe(_ error: Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            return (context.underlyingError as? CocoaError)?.userInfo["NSDebugDescription"] as? String ?? context.debugDescription
        }
        return "\(error)"
    }
}

/// Refuses a secret written inline, pointing at the by-reference keys.
func refuseInlineSecret(_ reader: JSONObjectReader, _ key: String) throws(OutboxError) {
    if reader.has(key) {
        throw .config("\(reader.keyPath(key)) is a secret written inline, which is refused: use \(key)_env (an environment variable) or \(key)_file (a file) instead")
    }
}

func readSecret(_ reader: inout JSONObjectReader, _ key: String) throws(OutboxError) -> SecretReference {
    try refuseInlineSecret(reader, key)
    let env = try reader.string(key + "_env")
    let file = try reader.string(key + "_file").map(Paths.expand)
    if env != nil && file != nil {
        throw .config("\(reader.keyPath(key + "_env")) and \(reader.keyPath(key + "_file")) are both set: choose one")
    }
    return SecretReference(environmentVariable: env, file: file)
}

extension WorkerConfig {
    mutating func read(_ r: inout JSONObjectReader) throws(OutboxError) {
        if var c = try r.object("concurrency") {
            for channel in Channel.allCases {
                if let n = try c.int(channel.rawValue, range: 1...256) { concurrency[channel] = n }
            }
            try c.finish()
        }
        leaseSeconds = try r.number("lease_seconds", range: 1...86_400) ?? leaseSeconds
        maxLostLeases = try r.int("max_lost_leases", range: 1...1000) ?? maxLostLeases
        shutdownGraceSeconds = try r.number("shutdown_grace_seconds", range: 0...3600) ?? shutdownGraceSeconds
        deliveryTimeoutSeconds = try r.number("delivery_timeout_seconds", range: 1...86_400) ?? deliveryTimeoutSeconds
        try r.finish()
    }
}

extension RetryPolicy {
    static func read(_ r: inout JSONObjectReader, defaults: RetryPolicy) throws(OutboxError) -> RetryPolicy {
        var policy = defaults
        policy.maxAttempts = try r.int("max_attempts", range: 1...1000) ?? policy.maxAttempts
        policy.baseSeconds = try r.number("base_seconds", range: 0...86_400) ?? policy.baseSeconds
        policy.maxDelaySeconds = try r.number("max_delay_seconds", range: 0...604_800) ?? policy.maxDelaySeconds
        policy.deadlineHours = try r.number("deadline_hours", range: 0...8760) ?? policy.deadlineHours
        try r.finish()
        return policy
    }
}

extension MailConfig {
    mutating func read(_ r: inout JSONObjectReader) throws(OutboxError) {
        if let sink = try r.choice("sink", Sink.allCases.map(\.rawValue)) { self.sink = Sink(rawValue: sink)! }
        if let from = try r.string("from") {
            do { _ = try EmailAddress(parsing: from) } catch {
                throw .config("\(r.keyPath("from")): \(error.message)")
            }
            self.from = from
        }
        if var s = try r.object("smtp") {
            guard let url = try s.string("url") else { throw .config("\(s.keyPath("url")) is required when \(r.keyPath("smtp")) is given") }
            guard url.hasPrefix("smtp://") || url.hasPrefix("smtps://") else {
                throw .config("\(s.keyPath("url")) must start with smtp:// or smtps://, not '\(url)'")
            }
            var smtp = SMTPConfig(url: url)
            if let v = try s.choice("starttls", SMTPConfig.StartTLS.allCases.map(\.rawValue)) { smtp.startTLS = .init(rawValue: v)! }
            smtp.caFile = try s.string("ca_file").map(Paths.expand)
            smtp.username = try s.string("username")
            smtp.password = try readSecret(&s, "password")
            smtp.helo = try s.string("helo")
            smtp.connectTimeoutSeconds = try s.number("connect_timeout_seconds", range: 0.1...3600) ?? smtp.connectTimeoutSeconds
            smtp.timeoutSeconds = try s.number("timeout_seconds", range: 0.1...86_400) ?? smtp.timeoutSeconds
            smtp.maxMessagesPerConnection = try s.int("max_messages_per_connection", range: 1...100_000) ?? smtp.maxMessagesPerConnection
            smtp.insecureSkipVerify = try s.bool("insecure_skip_verify") ?? false
            try s.finish()
            self.smtp = smtp
        }
        if var d = try r.object("directory") {
            if let path = try d.string("path") { directory = Paths.expand(path) }
            try d.finish()
        }
        try r.finish()
        if sink == .smtp && smtp == nil {
            throw .config("\(r.keyPath("sink")) is smtp but \(r.keyPath("smtp")) is missing: add mail.smtp.url")
        }
    }
}

extension SMSConfig {
    mutating func read(_ r: inout JSONObjectReader) throws(OutboxError) {
        if let sink = try r.choice("sink", Sink.allCases.map(\.rawValue)) { self.sink = Sink(rawValue: sink)! }
        if let code = try r.string("default_country_code") {
            guard PhoneNumber.isValidCountryCode(code) else {
                throw .config("\(r.keyPath("default_country_code")) must look like +49, not '\(code)'")
            }
            defaultCountryCode = code
        }
        if var k = try r.object("kannel") {
            guard let url = try k.string("url") else { throw .config("\(k.keyPath("url")) is required") }
            var kannel = KannelConfig(url: url)
            kannel.username = try k.string("username")
            kannel.password = try readSecret(&k, "password")
            kannel.from = try k.string("from")
            kannel.dlrListen = try k.string("dlr_listen")
            try k.finish()
            self.kannel = kannel
        }
        if var t = try r.object("twilio") {
            guard let sid = try t.string("account_sid") else { throw .config("\(t.keyPath("account_sid")) is required") }
            var twilio = TwilioConfig(accountSID: sid)
            twilio.baseURL = try t.string("base_url") ?? twilio.baseURL
            twilio.authToken = try readSecret(&t, "auth_token")
            twilio.from = try t.string("from")
            twilio.messagingServiceSID = try t.string("messaging_service_sid")
            twilio.statusCallbackURL = try t.string("status_callback_url")
            try t.finish()
            self.twilio = twilio
        }
        if var w = try r.object("webhook") {
            guard let url = try w.string("url") else { throw .config("\(w.keyPath("url")) is required") }
            var webhook = WebhookConfig(url: url)
            try refuseInlineSecret(w, "headers")
            if let headers = try w.rawObject("headers_env") {
                for (name, value) in headers {
                    guard case .string(let variable) = value else {
                        throw .config("\(w.keyPath("headers_env")).\(name) must be a string naming an environment variable, not \(value.typeName)")
                    }
                    webhook.headersEnv[name] = variable
                }
            }
            try w.finish()
            self.webhook = webhook
        }
        if var d = try r.object("directory") {
            if let path = try d.string("path") { directory = Paths.expand(path) }
            try d.finish()
        }
        try r.finish()
        let missing: String? = switch sink {
        case .kannel where kannel == nil: "kannel"
        case .twilio where twilio == nil: "twilio"
        case .webhook where webhook == nil: "webhook"
        default: nil
        }
        if let missing {
            throw .config("\(r.keyPath("sink")) is \(missing) but \(r.keyPath(missing)) is missing")
        }
    }
}

extension PrintConfig {
    mutating func read(_ r: inout JSONObjectReader) throws(OutboxError) {
        if let destination = try r.string("default_destination") {
            guard !destination.isEmpty else { throw .config("\(r.keyPath("default_destination")) must not be empty") }
            defaultDestination = destination
        }
        if var p = try r.object("pdf") {
            if let dir = try p.string("directory") { pdfDirectory = Paths.expand(dir) }
            try p.finish()
        }
        if var c = try r.object("cups") {
            cupsServer = try c.string("server").map(Paths.expand)
            try c.finish()
        }
        if var d = try r.object("defaults") {
            defaults.paper = try d.string("paper") ?? defaults.paper
            defaults.font = try d.string("font") ?? defaults.font
            defaults.lineSpacing = try d.number("line_spacing", range: 0.5...5) ?? defaults.lineSpacing
            try d.finish()
        }
        try r.finish()
    }
}
