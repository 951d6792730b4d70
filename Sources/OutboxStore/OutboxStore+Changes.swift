import FoundationEssentials
import OutboxModel
import OutboxSQLite

extension OutboxStore {
    /// Moves every message in `ids` to `next`, all or nothing: if any id is unknown or may not
    /// make that move, nothing changes and the error names it.
    func transition(_ ids: [Int64], to next: MessageState, verb: String, now: Milliseconds,
                    extra: String = "", extraValues: [any SQLiteBindable] = []) throws -> [MessageSummary] {
        try write {
            var moved: [MessageSummary] = []
            for id in ids {
                let message = try changeable(id, verb: verb) { $0.canMove(to: next) }
                try db.run("UPDATE message SET state = ?, updated_at = ?\(extra) WHERE id = ? AND state = ?",
                           [next.rawValue, now] + extraValues + [id, message.state.rawValue])
                moved.append(message)
            }
            return moved
        }
    }

    /// Message `id` for a change that `allowed` permits from its state — or the error every
    /// state-changing command gives: unknown id, or why this state cannot be `verb`ed.
    public func changeable(_ id: Int64, verb: String, listing: String = "history",
                    allowed: (MessageState) -> Bool) throws -> MessageSummary {
        guard let message = try summary(id: id) else {
            throw OutboxError.data("no message \(id): see `outbox \(listing)` for the ids")
        }
        guard allowed(message.state) else {
            throw OutboxError.data("cannot \(verb) message \(id): it is \(message.state.rawValue)\(Self.hint(message.state, verb: verb)); nothing was changed")
        }
        return message
    }

    static func hint(_ state: MessageState, verb: String) -> String {
        switch (state, verb) {
        case (.sending, _): " (a worker is delivering it right now)"
        case (.sent, "retry"): " (it was delivered; compose a new message to send it again)"
        case (.queued, "retry"), (.draft, "retry"): " (it is not failed or cancelled)"
        case (_, "discard"): ", not a draft (use `outbox cancel`)"
        case (_, "send"), (_, "edit"): ", not a draft"
        default: ""
        }
    }

    /// `send`: queues drafts now (or at their `--at` time), with the channel's attempt budget.
    @discardableResult
    public func send(drafts ids: [Int64], policies: [Channel: RetryPolicy] = [:],
                     now: Milliseconds = Timestamp.now()) throws -> [MessageSummary] {
        try write {
            var moved: [MessageSummary] = []
            for id in ids {
                let message = try changeable(id, verb: "send", listing: "drafts") { $0 == .draft }
                let policy = policies[message.channel] ?? .defaults(for: message.channel)
                let start = max(now, message.notBefore ?? now)
                try db.run("""
                    UPDATE message SET state = 'queued', queued_at = ?, next_attempt_at = ?, deadline = ?, max_attempts = ?, updated_at = ?
                    WHERE id = ? AND state = 'draft'
                    """, [now, start, start + policy.deadlineMilliseconds, policy.maxAttempts, now, id])
                moved.append(message)
            }
            return moved
        }
    }

    /// `cancel`: stops queued messages and drafts from going out.
    @discardableResult
    public func cancel(_ ids: [Int64], now: Milliseconds = Timestamp.now()) throws -> [MessageSummary] {
        try transition(ids, to: .cancelled, verb: "cancel", now: now, extra: ", finished_at = ?, next_attempt_at = NULL", extraValues: [now])
    }

    /// `retry`: puts failed or cancelled messages back in the queue now, with a fresh attempt
    /// budget and deadline, keeping their attempt history. `destination` redirects (print `--to`).
    @discardableResult
    public func retry(_ ids: [Int64], policies: [Channel: RetryPolicy], destination: String? = nil,
                      now: Milliseconds = Timestamp.now()) throws -> [MessageSummary] {
        try write {
            var moved: [MessageSummary] = []
            for id in ids {
                let message = try changeable(id, verb: "retry") { $0 == .failed || $0 == .cancelled }
                let policy = policies[message.channel] ?? .defaults(for: message.channel)
                try db.run("""
                    UPDATE message SET state = 'queued', attempts = 0, lost_leases = 0, max_attempts = ?, next_attempt_at = ?,
                           deadline = ?, queued_at = ?, finished_at = NULL, updated_at = ?, destination = coalesce(?, destination)
                    WHERE id = ? AND state = ?
                    """, [policy.maxAttempts, now, now + policy.deadlineMilliseconds, now, now, destination, id, message.state.rawValue])
                moved.append(message)
            }
            return moved
        }
    }

    /// `discard`: deletes drafts for good.
    @discardableResult
    public func discard(drafts ids: [Int64]) throws -> [MessageSummary] {
        try write {
            var removed: [MessageSummary] = []
            for id in ids {
                let message = try changeable(id, verb: "discard", listing: "drafts") { $0 == .draft }
                try deleteMessage(id: id, channel: message.channel)
                removed.append(message)
            }
            try deleteUnreferencedBlobs()
            return removed
        }
    }

    /// `edit`: replaces a draft's content (and optionally its destination and files).
    public func edit(draft id: Int64, content: MessageContent, destination: String?? = nil, files: [NewAttachment]? = nil,
                     now: Milliseconds = Timestamp.now()) throws {
        var hashed: [String: HashedFile] = [:]
        for file in files ?? [] where hashed[file.path] == nil { hashed[file.path] = try Self.hashFile(file.path) }
        try write {
            let message = try changeable(id, verb: "edit", listing: "drafts") { $0 == .draft }
            guard content.channel == message.channel else {
                throw OutboxError.data("cannot edit message \(id): it is a \(message.channel.rawValue) message")
            }
            try deleteContent(id: id, channel: message.channel)
            try insertContent(content, id: id)
            if let destination { try db.run("UPDATE message SET destination = ? WHERE id = ?", [destination, id]) }
            if let files {
                try db.run("DELETE FROM attachment WHERE message_id = ?", [id])
                for (position, file) in files.enumerated() {
                    guard let h = hashed[file.path] else { continue }
                    try storeBlob(h)
                    try db.run("INSERT INTO attachment (message_id, position, role, filename, mime_type, size, sha256) VALUES (?, ?, ?, ?, ?, ?, ?)",
                               [id, position, file.role.rawValue, file.filename, file.mimeType, h.size, h.sha256])
                }
                try deleteUnreferencedBlobs()
            }
            try db.run("UPDATE message SET updated_at = ? WHERE id = ?", [now, id])
        }
    }

    /// Deletes a message with everything hanging off it (attempts, files, results cascade).
    func deleteMessage(id: Int64, channel: Channel) throws {
        try deleteContent(id: id, channel: channel)
        try db.run("DELETE FROM message WHERE id = ?", [id])
    }

    /// Drops blobs no message refers to any more.
    func deleteUnreferencedBlobs() throws {
        try db.run("DELETE FROM blob WHERE NOT EXISTS (SELECT 1 FROM attachment a WHERE a.sha256 = blob.sha256)")
    }
}
