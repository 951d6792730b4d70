import OutboxEngine
import OutboxModel

/// Builds the SMS sink the config names; the CLI calls this once per process.
public enum SMSSinks {
    /// The sink for `config.sink`. Throws a config error (exit 78) naming the key when the chosen
    /// sink's section is unusable; secrets are resolved later, when a request needs them.
    public static func make(config: SMSConfig) throws(OutboxError) -> any Sink {
        switch config.sink {
        case .directory:
            return SMSDirectorySink(directory: config.directory)
        case .kannel, .twilio, .webhook:
            throw .config("sms.sink \(config.sink.rawValue) is not available yet")
        }
    }
}
