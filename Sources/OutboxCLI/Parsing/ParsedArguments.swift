import OutboxModel

/// What the parser found on the command line, read by a command's `run`.
public struct ParsedArguments: Sendable {
    public var values: [String: [String]] = [:]
    public var flags: Set<String> = []
    public var positionals: [String] = []
    /// The order options appeared in (e.g. `--attach` before `--attach`), as (name, value).
    public var ordered: [(String, String?)] = []

    public func has(_ flag: String) -> Bool { flags.contains(flag) || values[flag] != nil }
    public func value(_ name: String) -> String? { values[name]?.last }
    public func all(_ name: String) -> [String] { values[name] ?? [] }

    /// A whole number within `range`, or a usage error naming the flag.
    public func int(_ name: String, range: ClosedRange<Int> = Int.min...Int.max) throws(OutboxError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let n = Int(text), range.contains(n) else {
            throw .usage("--\(name) must be a whole number\(range == Int.min...Int.max ? "" : " from \(range.lowerBound) to \(range.upperBound)"), not '\(text)'")
        }
        return n
    }

    public func double(_ name: String, range: ClosedRange<Double>) throws(OutboxError) -> Double? {
        guard let text = value(name) else { return nil }
        guard let n = Double(text), range.contains(n) else {
            throw .usage("--\(name) must be a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return n
    }

    /// A value that must be one of `allowed`.
    public func choice(_ name: String, _ allowed: [String]) throws(OutboxError) -> String? {
        guard let text = value(name) else { return nil }
        guard allowed.contains(text) else {
            let hint = Spelling.closest(to: text, in: allowed).map { " (did you mean '\($0)'?)" } ?? ""
            throw .usage("--\(name) must be one of \(allowed.joined(separator: ", ")), not '\(text)'\(hint)")
        }
        return text
    }

    /// A time for `--at`, `--since`, `--until`.
    public func time(_ name: String, relativeSign: Int64) throws(OutboxError) -> Milliseconds? {
        guard let text = value(name) else { return nil }
        guard let t = Timestamp.parse(text, relativeSign: relativeSign) else {
            throw .usage("--\(name) '\(text)' is not a time: use 2026-12-01T09:00:00Z, '2026-12-01 09:00', 2026-12-01, +10m, 7d or @UNIXSECONDS")
        }
        return t
    }

    /// Positional message ids.
    public func ids(_ what: String = "ID") throws(OutboxError) -> [Int64] {
        var ids: [Int64] = []
        for text in positionals {
            guard let id = Int64(text.trimmingScalars(where: { $0 == "#" })), id > 0 else {
                throw .usage("'\(text)' is not a message id: ids are the numbers `outbox history` shows")
            }
            ids.append(id)
        }
        return ids
    }

    public func states(_ name: String = "state") throws(OutboxError) -> [MessageState] {
        try all(name).flatMap { $0.split(separator: ",") }.map { text throws(OutboxError) -> MessageState in
            guard let state = MessageState(rawValue: String(text)) else {
                let names = MessageState.allCases.map(\.rawValue)
                let hint = Spelling.closest(to: String(text), in: names).map { " (did you mean '\($0)'?)" } ?? ""
                throw .usage("unknown state '\(text)'\(hint): states are \(names.joined(separator: ", "))")
            }
            return state
        }
    }

    public func channels(_ name: String = "channel") throws(OutboxError) -> [Channel] {
        try all(name).flatMap { $0.split(separator: ",") }.map { text throws(OutboxError) -> Channel in
            guard let channel = Channel(rawValue: String(text)) else {
                throw .usage("unknown channel '\(text)': channels are mail, sms, print")
            }
            return channel
        }
    }
}

import FoundationEssentials
