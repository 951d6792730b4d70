import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Milliseconds since the Unix epoch, UTC: how every time is stored.
public typealias Milliseconds = Int64

public enum Timestamp {
    public static func now() -> Milliseconds { Milliseconds((Date().timeIntervalSince1970 * 1000).rounded()) }

    public static func date(_ ms: Milliseconds) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }

    public static func milliseconds(_ date: Date) -> Milliseconds {
        Milliseconds((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// ISO 8601 in UTC with milliseconds, as JSON output shows times. Formatted by hand:
    /// building an `ISO8601DateFormatter` per call is slow, and sharing one is not thread-safe.
    public static func iso8601(_ ms: Milliseconds) -> String {
        var seconds = time_t(ms >= 0 ? ms / 1000 : (ms - 999) / 1000)
        let millis = Int((ms % 1000 + 1000) % 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return digits(Int(parts.tm_year) + 1900, 4) + "-" + digits(Int(parts.tm_mon) + 1, 2) + "-" + digits(Int(parts.tm_mday), 2)
            + "T" + digits(Int(parts.tm_hour), 2) + ":" + digits(Int(parts.tm_min), 2) + ":" + digits(Int(parts.tm_sec), 2)
            + "." + digits(millis, 3) + "Z"
    }

    /// A short local time for tables: "2026-11-29 13:45".
    public static func short(_ ms: Milliseconds) -> String {
        var seconds = time_t(ms >= 0 ? ms / 1000 : (ms - 999) / 1000)
        var parts = tm()
        localtime_r(&seconds, &parts)
        return digits(Int(parts.tm_year) + 1900, 4) + "-" + digits(Int(parts.tm_mon) + 1, 2) + "-" + digits(Int(parts.tm_mday), 2)
            + " " + digits(Int(parts.tm_hour), 2) + ":" + digits(Int(parts.tm_min), 2)
    }

    /// `value` in decimal, zero-padded to `width` (as `%0*d`).
    static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value.magnitude)
        let padded = text.count < width ? String(repeating: "0", count: width - text.count) + text : text
        return value < 0 ? "-" + padded : padded
    }

    /// Parses a user-given time: ISO 8601 (`2026-12-01T09:00:00Z`, `2026-12-01 09:00`,
    /// `2026-12-01`), a Unix time in seconds (`@1767225600`), or a relative time (`+10m`, `-2h`,
    /// `7d` meaning that long ago for `--since`). `relativeSign` says which way a bare `7d` goes.
    public static func parse(_ text: String, now: Milliseconds = now(), relativeSign: Int64 = -1) -> Milliseconds? {
        let text = text.trimmingSpaces()
        if text == "now" { return now }
        if text.hasPrefix("@"), let seconds = Double(text.dropFirst()) { return Milliseconds(seconds * 1000) }
        if let first = text.first, first == "+" || first == "-" || first.isNumber,
           let duration = DurationText.milliseconds(String(text.drop(while: { $0 == "+" || $0 == "-" }))),
           !text.contains(":"), text.count < 12 {
            let sign: Int64 = first == "+" ? 1 : first == "-" ? -1 : relativeSign
            return now + sign * duration
        }
        return TimeText.parse(text)
    }
}

/// Durations written as `90s`, `10m`, `2h`, `7d`, `2w` (a bare number means seconds).
public enum DurationText {
    public static func milliseconds(_ text: String) -> Milliseconds? {
        let units: [Character: Int64] = ["s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000, "w": 604_800_000]
        guard let last = text.last else { return nil }
        if let unit = units[last], let value = Double(text.dropLast()), value >= 0 {
            return Milliseconds(value * Double(unit))
        }
        if let value = Double(text), value >= 0 { return Milliseconds(value * 1000) }
        return nil
    }
}
