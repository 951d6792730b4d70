import OutboxEngine
import OutboxModel

/// Builds the SMS sink the config names; the CLI calls this once per process.
public enum SMSSinks {
    /// The sink for `config.sink`. Throws a config error (exit 78) naming the key when the chosen
    /// sink's section is unusable. Secrets are only checked to be referenced here; their values
    /// are read when a request needs them, so `status` works without them.
    public static func make(config: SMSConfig) throws(OutboxError) -> any Sink {
        switch config.sink {
        case .directory:
            return SMSDirectorySink(directory: config.directory)
        case .kannel:
            guard let kannel = config.kannel else { throw .config("sms.sink is kannel but there is no sms.kannel section") }
            try requireHTTPURL(kannel.url, "sms.kannel.url")
            return try KannelSink(config: kannel)
        case .twilio:
            guard let twilio = config.twilio else { throw .config("sms.sink is twilio but there is no sms.twilio section") }
            try requireHTTPURL(twilio.baseURL, "sms.twilio.base_url")
            guard twilio.authToken.isSet else {
                throw .config("sms.twilio needs auth_token_env or auth_token_file (the token is never written in the config)")
            }
            guard twilio.from != nil || twilio.messagingServiceSID != nil else {
                throw .config("sms.twilio needs from or messaging_service_sid")
            }
            return TwilioSink(config: twilio, statusCallbackURL: twilio.statusCallbackURL)
        case .webhook:
            guard let webhook = config.webhook else { throw .config("sms.sink is webhook but there is no sms.webhook section") }
            try requireHTTPURL(webhook.url, "sms.webhook.url")
            return WebhookSink(config: webhook)
        }
    }

    static func requireHTTPURL(_ url: String, _ key: String) throws(OutboxError) {
        guard url.hasPrefix("http://") || url.hasPrefix("https://"), url.count > "https://".count else {
            throw .config("\(key) must be an http:// or https:// URL (got '\(SMSURL.redacted(url))')")
        }
    }
}
