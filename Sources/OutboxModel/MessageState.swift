/// Where a message is in its life. `queued` also means "waiting for a retry" (see
/// `next_attempt_at`); `submitted` means handed to a sink that reports back later.
public enum MessageState: String, CaseIterable, Codable, Sendable {
    case draft, queued, sending, submitted, sent, failed, cancelled

    /// Final states: nothing moves a message out of them except an explicit `retry`.
    public var isFinal: Bool { self == .sent || self == .failed || self == .cancelled }

    /// Every allowed transition, in one place. The store refuses anything else.
    public static let transitions: [MessageState: Set<MessageState>] = [
        .draft: [.queued, .cancelled],
        .queued: [.sending, .cancelled, .failed, .draft],
        // sending → queued: retry scheduled, offline, released at shutdown, or lease lost.
        .sending: [.queued, .submitted, .sent, .failed],
        .submitted: [.sent, .failed],
        .sent: [],
        // `retry` resubmits what failed or was cancelled, keeping its history.
        .failed: [.queued],
        .cancelled: [.queued],
    ]

    public func canMove(to next: MessageState) -> Bool {
        Self.transitions[self, default: []].contains(next)
    }
}
