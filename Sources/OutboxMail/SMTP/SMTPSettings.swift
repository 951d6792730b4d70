import CCurl
import Foundation
import OutboxModel

/// The connection settings derived once from `mail.smtp`: the URL with the EHLO name as its path
/// (that is how libcurl takes it), the TLS level, certificates, credentials and timeouts.
struct SMTPSettings: Sendable {
    var url: String
    /// `smtp://host:port` without the EHLO path, for messages.
    var displayURL: String
    var tlsLevel: curl_usessl
    var implicitTLS: Bool
    var startTLS: SMTPConfig.StartTLS
    var caFile: String?
    var insecureSkipVerify: Bool
    var username: String?
    var password: SecretReference
    var connectTimeoutSeconds: Double
    var timeoutSeconds: Double
    var maxMessagesPerConnection: Int

    init(_ config: SMTPConfig) throws(OutboxError) {
        guard var components = URLComponents(string: config.url), let scheme = components.scheme?.lowercased(),
              scheme == "smtp" || scheme == "smtps", let host = components.host, !host.isEmpty else {
            throw .config("mail.smtp.url '\(config.url)' is not an smtp:// or smtps:// URL, e.g. smtp://mail.example.org:587")
        }
        guard components.user == nil && components.password == nil else {
            throw .config("mail.smtp.url must not carry credentials: use mail.smtp.username and password_env or password_file")
        }
        if let helo = config.helo {
            guard !helo.isEmpty, helo.allSatisfy({ $0.isLetter || $0.isNumber || "-.[]:".contains($0) }) else {
                throw .config("mail.smtp.helo '\(helo)' is not a host name")
            }
            components.path = "/" + helo
        }
        var display = components
        display.path = ""
        url = components.string ?? config.url
        displayURL = display.string ?? config.url
        implicitTLS = scheme == "smtps"
        startTLS = config.startTLS
        tlsLevel = switch config.startTLS {
        case _ where implicitTLS: CURLUSESSL_ALL
        case .required: CURLUSESSL_ALL
        case .opportunistic: CURLUSESSL_TRY
        case .off: CURLUSESSL_NONE
        }
        caFile = config.caFile.map(Paths.expand)
        insecureSkipVerify = config.insecureSkipVerify
        username = config.username
        password = config.password
        connectTimeoutSeconds = config.connectTimeoutSeconds
        timeoutSeconds = config.timeoutSeconds
        maxMessagesPerConnection = max(1, config.maxMessagesPerConnection)
    }

    /// `smtp://mail.example.org:587 (STARTTLS required, login as outbox)` — never the password.
    var description: String {
        var parts: [String] = []
        if implicitTLS { parts.append("implicit TLS") }
        else { parts.append(startTLS == .off ? "no TLS" : "STARTTLS \(startTLS.rawValue)") }
        if insecureSkipVerify { parts.append("certificate NOT verified") }
        if let username { parts.append("login as \(username)") }
        return "\(displayURL) (\(parts.joined(separator: ", ")))"
    }
}
