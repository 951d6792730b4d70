import OutboxModel

/// The filters of `history`, `retry --failed` and `purge`.
public struct HistoryFilter: Sendable, Equatable {
    public var states: [MessageState] = []
    public var channels: [Channel] = []
    /// Created at or after.
    public var since: Milliseconds?
    /// Created before.
    public var until: Milliseconds?
    /// A recipient (or printer) containing this text.
    public var recipient: String?
    /// Full-text search over subject, bodies, recipients and job names.
    public var search: String?
    public var ids: [Int64] = []
    public var limit: Int?

    public init(states: [MessageState] = [], channels: [Channel] = [], since: Milliseconds? = nil,
                until: Milliseconds? = nil, recipient: String? = nil, search: String? = nil,
                ids: [Int64] = [], limit: Int? = nil) {
        self.states = states
        self.channels = channels
        self.since = since
        self.until = until
        self.recipient = recipient
        self.search = search
        self.ids = ids
        self.limit = limit
    }

    /// The user's words as an FTS5 query: every word must appear; quoting each word keeps
    /// punctuation (`@`, `-`, `:`) from being read as query syntax. A trailing `*` is a prefix search.
    static func ftsQuery(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).map { word in
            let prefix = word.hasSuffix("*") && word.count > 1
            let bare = prefix ? word.dropLast() : word[...]
            return "\"" + bare.replacingEvery("\"", with: "\"\"") + "\"" + (prefix ? "*" : "")
        }.joined(separator: " ")
    }
}
