import Foundation
import OutboxEngine
import OutboxModel

/// Builds the configured mail sink.
public enum MailSinks {
    /// The sink `mail.sink` names: `directory` (the default) or `smtp`, which needs `mail.smtp`.
    public static func make(config: MailConfig) throws(OutboxError) -> any Sink {
        let composer = MIMEComposer(defaultSender: config.from)
        switch config.sink {
        case .directory:
            return MailDirectorySink(directory: config.directory, composer: composer)
        case .smtp:
            guard let smtp = config.smtp else {
                throw .config("mail.sink is \"smtp\" but mail.smtp is missing: add mail.smtp.url, e.g. smtp://mail.example.org:587")
            }
            return try SMTPSink(config: smtp, composer: composer)
        }
    }
}
