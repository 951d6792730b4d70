import OutboxModel
import Testing

@Suite("State machine")
struct MessageStateTests {
    /// The intended transitions, written out independently of `MessageState.transitions`:
    /// draft → queued (send) | cancelled; queued → sending (claim) | cancelled | failed (deadline
    /// passed while waiting) | draft; sending → queued (retry later, offline, released, lease
    /// lost) | submitted | sent | failed; submitted → sent | failed (the late report); failed and
    /// cancelled → queued (`retry`); sent is final.
    static let allowed: Set<String> = [
        "draft>queued", "draft>cancelled",
        "queued>sending", "queued>cancelled", "queued>failed", "queued>draft",
        "sending>queued", "sending>submitted", "sending>sent", "sending>failed",
        "submitted>sent", "submitted>failed",
        "failed>queued",
        "cancelled>queued",
    ]

    static let pairs: [(MessageState, MessageState)] =
        MessageState.allCases.flatMap { from in MessageState.allCases.map { (from, $0) } }

    @Test func thereAreSevenStates() {
        #expect(MessageState.allCases.map(\.rawValue) == ["draft", "queued", "sending", "submitted", "sent", "failed", "cancelled"])
        #expect(Self.pairs.count == 49)
    }

    @Test(arguments: pairs)
    func canMove(from: MessageState, to: MessageState) {
        #expect(from.canMove(to: to) == Self.allowed.contains("\(from.rawValue)>\(to.rawValue)"),
                "\(from.rawValue) → \(to.rawValue)")
    }

    @Test func noStateMovesToItself() {
        for state in MessageState.allCases { #expect(!state.canMove(to: state)) }
    }

    @Test func finalStatesLeaveOnlyByRetry() {
        for state in MessageState.allCases where state.isFinal {
            #expect(MessageState.allCases.filter { state.canMove(to: $0) }.allSatisfy { $0 == .queued })
        }
        #expect(MessageState.allCases.filter(\.isFinal) == [.sent, .failed, .cancelled])
    }

    /// "A late report never moves a message backwards": nothing leaves sent, and a submitted
    /// message only goes forward.
    @Test func lateReportsNeverMoveBackwards() {
        #expect(MessageState.transitions[.sent, default: []].isEmpty)
        #expect(MessageState.transitions[.submitted] == [.sent, .failed])
    }
}
