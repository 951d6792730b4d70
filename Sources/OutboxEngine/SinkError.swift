import OutboxModel

/// A failed delivery, classified so the worker knows what to do (see `ErrorClass`).
public struct SinkError: Error, Sendable, Equatable, CustomStringConvertible {
    public var errorClass: ErrorClass
    /// Machine-readable code: `smtp 550 5.1.1`, `http 503`, `curl 7`, `ipp aborted document-unprintable-error`.
    public var code: String?
    /// What happened and what to do, for the attempt row and logs. Never a secret.
    public var detail: String
    /// A server's Retry-After, honoured by the backoff.
    public var retryAfterSeconds: Double?
    /// Set when the message reached the remote side before the failure (uncertain outcomes).
    public var remoteID: String?

    public init(_ errorClass: ErrorClass, code: String? = nil, _ detail: String,
                retryAfterSeconds: Double? = nil, remoteID: String? = nil) {
        self.errorClass = errorClass
        self.code = code
        self.detail = detail
        self.retryAfterSeconds = retryAfterSeconds
        self.remoteID = remoteID
    }

    public var description: String { [errorClass.rawValue, code, detail].compactMap { $0 }.joined(separator: ": ") }
}

/// The answer of `Sink.probe()`.
public enum SinkProbe: Sendable, Equatable {
    case reachable(detail: String)
    case unreachable(SinkError)
}
