/// The three kinds of outbox entry.
public enum Channel: String, CaseIterable, Codable, Sendable, Comparable {
    case mail, sms, print

    public static func < (a: Channel, b: Channel) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
