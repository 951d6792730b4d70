import Foundation
import OutboxEngine
import OutboxMail
import OutboxModel
import OutboxPrint
import OutboxSMS

/// Picks each channel's sink from the config. The only place that knows every sink module.
public enum SinkFactory {
    public static func make(config: Config) throws -> SinkSet {
        var mail = config.mail
        if mail.from == nil { mail.from = defaultSender() }
        return SinkSet([
            .mail: try MailSinks.make(config: mail),
            .sms: try SMSSinks.make(config: config.sms),
            .print: PrintSinks.make(config: config.print),
        ])
    }

    /// With no `--from` and no `mail.from`, mail goes out as the local user at this host, the way
    /// mail(1) and sendmail do.
    static func defaultSender() -> String {
        let user = ProcessInfo.processInfo.environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "outbox"
        var host = ProcessInfo.processInfo.hostName
        if host.isEmpty || !host.contains(".") { host += ".localdomain" }
        return "\(user)@\(host)"
    }
}
