import OutboxEngine
import OutboxModel

/// A request that got no HTTP answer: libcurl's result code, its wording, and whether the
/// request had already left (which makes a POST's outcome uncertain rather than failed).
struct HTTPFailure: Error, Sendable, Equatable {
    var curlCode: Int
    var message: String
    var requestSent: Bool

    /// Classifies for the worker (see `ErrorClass`):
    /// - nothing reached the gateway — refused, unresolvable, no route, TLS handshake or a bad
    ///   URL — `offline`: no attempt is spent and the sink is paused until it answers again;
    /// - the request left but the answer was lost — `uncertain`, retried with the same uid;
    /// - anything else is `transient`.
    func sinkError(_ gateway: String) -> SinkError {
        let code = "curl \(curlCode)"
        switch curlCode {
        case 1, 3, 5, 6, 7, 35, 51, 53, 58, 59, 60, 77, 83, 90, 91:
            return SinkError(.offline, code: code, "\(gateway) is unreachable: \(message)")
        case 28 where !requestSent:
            return SinkError(.offline, code: code, "\(gateway) did not accept a connection in time: \(message)")
        case 18 where requestSent, 28 where requestSent, 52 where requestSent, 55 where requestSent,
             56 where requestSent:
            return SinkError(.uncertain, code: code, "the request reached \(gateway) but its answer was lost: \(message)")
        default:
            return SinkError(.transient, code: code, "\(gateway) request failed: \(message)")
        }
    }
}
