import CCurl
import OutboxEngine
import OutboxModel

/// How a transfer's outcome becomes a receipt or a classified `SinkError`:
/// - 5xx → permanent, 4xx → transient (the reply and its enhanced code are kept);
/// - 535 / login denied → permanent, saying to fix the credentials;
/// - connection refused, host not found, network unreachable → offline (no attempt spent);
/// - TLS handshake or certificate failure → permanent, with libcurl's reason;
/// - the connection lost after the whole message was handed over → uncertain.
extension SMTPSink {
    static func classify(_ transfer: SMTPConnection.Transfer, settings: SMTPSettings) -> Result<DeliveryReceipt, SinkError> {
        let code = transfer.code
        let curlCode = "curl \(code.rawValue)"
        let reason = transfer.errorText
        let refused = transfer.replies.filter { $0.command == "RCPT" && !$0.isPositive }

        if code == CURLE_OK {
            let final = transfer.finalReply
            var detail = final?.text ?? "accepted"
            if !refused.isEmpty {
                let accepted = transfer.replies.filter { $0.command == "RCPT" && $0.isPositive }.compactMap(\.recipient)
                detail += "; accepted: " + accepted.joined(separator: ", ")
                detail += "; refused: " + refused.map { "\($0.recipient ?? "?") (\($0.text))" }.joined(separator: ", ")
            }
            return .success(DeliveryReceipt(outcome: .sent, remoteID: final?.queueID, code: final?.attemptCode ?? "smtp 250",
                                            detail: detail))
        }

        switch code {
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .failure(SinkError(.offline, code: curlCode, "cannot reach the SMTP server \(settings.displayURL): \(reason)"))
        case CURLE_LOGIN_DENIED:
            let reply = transfer.replies.last { $0.command == "AUTH" }
            return .failure(SinkError(.permanent, code: reply?.attemptCode ?? "smtp 535",
                                      "the SMTP server refused the login as \(settings.username ?? "?")"
                                      + (reply.map { " (\($0.text))" } ?? "")
                                      + ": fix mail.smtp.username and the password it reads from \(settings.password)"))
        case CURLE_USE_SSL_FAILED:
            return .failure(SinkError(.permanent, code: curlCode,
                                      "the SMTP server \(settings.displayURL) does not offer STARTTLS, which mail.smtp.starttls requires: \(reason)"))
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ISSUER_ERROR,
             CURLE_SSL_CRL_BADFILE, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_SHUTDOWN_FAILED:
            return .failure(SinkError(.permanent, code: curlCode,
                                      "TLS with the SMTP server \(settings.displayURL) failed: \(reason)"
                                      + (code == CURLE_PEER_FAILED_VERIFICATION ? " (set mail.smtp.ca_file for a private CA)" : "")))
        case CURLE_ABORTED_BY_CALLBACK where transfer.readError != nil:
            let error = transfer.readError!
            let errorClass: ErrorClass = error is AttachmentSizeMismatch ? .permanent : .transient
            return .failure(SinkError(errorClass, code: "attachment", "cannot read the message's attachment: \(error)"))
        default:
            break
        }

        // A definite negative reply decides: the last one the server gave.
        if let reply = transfer.replies.last, !reply.isPositive {
            if reply.command == "RCPT" {
                // Every recipient refused (curl fails only then): permanent unless one may clear up.
                let transient = refused.contains { $0.code < 500 }
                return .failure(SinkError(transient ? .transient : .permanent, code: reply.attemptCode,
                                          "every recipient was refused: "
                                          + refused.map { "\($0.recipient ?? "?") (\($0.text))" }.joined(separator: ", ")))
            }
            if reply.code == 530 || reply.code == 538 {
                return .failure(SinkError(.permanent, code: reply.attemptCode,
                                          "the SMTP server requires authentication or TLS (\(reply.text)): set mail.smtp.username and starttls"))
            }
            let errorClass: ErrorClass = reply.code >= 500 ? .permanent : .transient
            let stage = reply.command == "." ? "the message" : reply.command == "GREETING" ? "the connection" : reply.command
            return .failure(SinkError(errorClass, code: reply.attemptCode, "the SMTP server refused \(stage): \(reply.text)"))
        }

        if code == CURLE_OPERATION_TIMEDOUT && transfer.replies.isEmpty && !transfer.reused {
            return .failure(SinkError(.offline, code: curlCode, "no answer from the SMTP server \(settings.displayURL): \(reason)"))
        }
        if transfer.dataFinished && transfer.finalReply == nil {
            return .failure(SinkError(.uncertain, code: curlCode,
                                      "the connection was lost after the message was sent, before the server confirmed it: \(reason)"))
        }
        return .failure(SinkError(.transient, code: curlCode, "SMTP transfer failed: \(reason)"))
    }

    /// The failure came before the server accepted MAIL FROM (a stale pooled connection).
    static func failedBeforeMail(_ transfer: SMTPConnection.Transfer) -> Bool {
        !transfer.replies.contains { $0.command == "MAIL" && $0.isPositive } && !transfer.dataFinished
            && (transfer.replies.last.map { $0.isPositive } ?? true)
    }
}
