import CCurl
import Foundation
import OutboxEngine
import OutboxModel
import Synchronization

/// The `smtp` mail sink: hands each message to an SMTP server through libcurl (`smtp://` with
/// STARTTLS required/opportunistic/off, or `smtps://`), with AUTH, timeouts and per-recipient
/// outcomes. libcurl speaks SMTP, TLS and SASL; we compose the message and classify the result.
///
/// Connections are pooled: each delivery takes an idle connection (or makes one), and gives it
/// back afterwards, so every sending thread keeps one connection open across messages, up to
/// `max_messages_per_connection`. A connection that saw a failure is closed, never reused.
public final class SMTPSink: Sink {
    public let channel = Channel.mail
    public let name = "smtp"
    let settings: SMTPSettings
    let composer: MIMEComposer
    private let idle = Mutex<[SMTPConnection]>([])

    /// Validates the settings and that the password reference resolves.
    public init(config: SMTPConfig, composer: MIMEComposer) throws(OutboxError) {
        settings = try SMTPSettings(config)
        self.composer = composer
        if settings.username != nil { _ = try settings.password.resolve() }
        if settings.insecureSkipVerify {
            Log.shared.warning("smtp-insecure-skip-verify", channel: .mail, [
                "url": settings.displayURL,
                "warning": "TLS certificates are NOT verified (mail.smtp.insecure_skip_verify); use only for tests",
            ])
        }
    }

    public var destinationDescription: String { "SMTP server \(settings.description)" }

    public func deliver(_ delivery: Delivery) throws(SinkError) -> DeliveryReceipt {
        let message: ComposedMessage
        do { message = try composer.compose(delivery) } catch {
            throw SinkError(.permanent, code: "mime", error.message)
        }
        var connection = try takeConnection()
        var transfer = try send(message, delivery: delivery, over: connection)
        // An idle connection the server closed shows up as a failure before anything was
        // accepted: retry once on a fresh connection rather than spend an attempt.
        if transfer.reused && transfer.code != CURLE_OK && Self.failedBeforeMail(transfer) {
            connection.close()
            Log.shared.debug("smtp-stale-connection", id: delivery.messageID, channel: .mail, ["curl": "\(transfer.code.rawValue)"])
            connection = try makeConnection()
            transfer = try send(message, delivery: delivery, over: connection)
        }
        let result = Self.classify(transfer, settings: settings)
        if transfer.code == CURLE_OK && connection.messagesSent < settings.maxMessagesPerConnection {
            idle.withLock { $0.append(connection) }
        } else {
            connection.close()
        }
        switch result {
        case .success(let receipt):
            Log.shared.debug("smtp-sent", id: delivery.messageID, channel: .mail, ["reply": receipt.detail ?? ""])
            return receipt
        case .failure(let error):
            Log.shared.info("smtp-failed", id: delivery.messageID, channel: .mail, ["class": error.errorClass.rawValue,
                                                                                  "code": error.code ?? "", "detail": error.detail])
            throw error
        }
    }

    /// Connects, greets, negotiates TLS and logs in for real, then says QUIT.
    public func probe() -> SinkProbe {
        let connection: SMTPConnection
        do {
            connection = try SMTPConnection(settings, password: try password(), connectOnly: true)
        } catch let error as SinkError {
            return .unreachable(error)
        } catch {
            return .unreachable(SinkError(.transient, code: "curl", "\(error)"))
        }
        defer { connection.close() }
        let transfer = connection.connect()
        if transfer.code == CURLE_OK {
            let greeting = transfer.replies.first { $0.command == "GREETING" }?.text ?? ""
            return .reachable(detail: "reachable: \(settings.description)" + (greeting.isEmpty ? "" : " — \(greeting)"))
        }
        switch Self.classify(transfer, settings: settings) {
        case .failure(let error): return .unreachable(error)
        case .success: return .reachable(detail: "reachable: \(settings.description)")
        }
    }

    public func shutdown() {
        let connections = idle.withLock { pool in
            defer { pool.removeAll() }
            return pool
        }
        for connection in connections { connection.close() }
    }

    deinit { shutdown() }

    // MARK: - Connections

    private func takeConnection() throws(SinkError) -> SMTPConnection {
        if let connection = idle.withLock({ $0.popLast() }) { return connection }
        return try makeConnection()
    }

    private func makeConnection() throws(SinkError) -> SMTPConnection {
        let password = try password()
        do { return try SMTPConnection(settings, password: password) } catch {
            throw SinkError(.transient, code: "curl \(error.code.rawValue)", error.description)
        }
    }

    /// Read for each new connection, so a rotated password file is picked up. A reference that
    /// does not resolve pauses the sink (offline) rather than failing mail that is not at fault.
    private func password() throws(SinkError) -> String? {
        guard settings.username != nil else { return nil }
        do { return try settings.password.resolve() } catch {
            throw SinkError(.offline, code: "config", "cannot read the SMTP password: \(error.message)")
        }
    }

    private func send(_ message: ComposedMessage, delivery: Delivery, over connection: SMTPConnection) throws(SinkError) -> SMTPConnection.Transfer {
        let stream = message.open(messageID: delivery.messageID, files: delivery.files)
        defer { stream.close() }
        do { return try connection.send(message, stream: stream) } catch {
            connection.close()
            throw SinkError(.transient, code: "curl \(error.code.rawValue)", error.description)
        }
    }
}
