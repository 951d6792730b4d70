#if canImport(Glibc)
import Glibc
#endif

/// The calendar forms `Timestamp.parse` accepts, read by hand with the C library's `timegm` and
/// `mktime` (Foundation's date formatters need ICU, which costs every `outbox` process about
/// 4 ms to load):
///
/// - `2026-12-01T09:00:00Z`, `…T09:00:00.250Z`, `…T09:00:00+02:00` (`+0200`, `+02`, `UTC`,
///   `GMT`): an instant. Seconds are required; fractions beyond milliseconds are cut off;
///   `T24:00:00` is the next midnight.
/// - `2026-12-01T09:00:30`, `2026-12-01 09:00:30`, `2026-12-01T09:00`, `2026-12-01 09:00`,
///   `2026-12-01`: local time. A time that does not exist (skipped by a DST change) is refused;
///   one that exists twice (clocks turned back) is the later, in standard time.
///
/// Months, days, hours, minutes and seconds may have one digit; dates that do not exist are refused.
enum TimeText {
    static func parse(_ text: String) -> Milliseconds? {
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.number(maxDigits: 4), scanner.skip("-"),
              let month = scanner.number(maxDigits: 2), scanner.skip("-"),
              let day = scanner.number(maxDigits: 2),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day) else { return nil }
        if scanner.atEnd { return local(year, month, day, 0, 0, 0) }
        let isT = scanner.skip("T")
        if !isT {
            guard scanner.skip(" ") else { return nil }
            while scanner.skip(" ") {}
        }
        guard let hour = scanner.number(maxDigits: 2), scanner.skip(":"), let minute = scanner.number(maxDigits: 2),
              (0...59).contains(minute) else { return nil }
        var second = 0
        if scanner.skip(":") {
            guard let s = scanner.number(maxDigits: 2), (0...59).contains(s) else { return nil }
            second = s
        } else {
            // Without seconds only the local forms apply.
            guard scanner.atEnd, hour <= 23 else { return nil }
            return local(year, month, day, hour, minute, 0)
        }
        if scanner.atEnd {
            guard hour <= 23 else { return nil }
            return local(year, month, day, hour, minute, second)
        }
        // From here on: an instant, which needs the `T` form and a zone.
        guard isT else { return nil }
        var millis = 0
        if scanner.skip(".") {
            guard let fraction = scanner.digits(), !fraction.isEmpty else { return nil }
            for (i, digit) in fraction.prefix(3).enumerated() { millis += Int(digit) * [100, 10, 1][i] }
        }
        guard let offset = scanner.zoneOffsetSeconds(), scanner.atEnd else { return nil }
        guard hour <= 23 || (hour == 24 && minute == 0 && second == 0 && millis == 0) else { return nil }
        var parts = brokenDown(year, month, day, hour, minute, second)
        let seconds = Int64(timegm(&parts)) - Int64(offset)
        return seconds * 1000 + Int64(millis)
    }

    /// A C `tm` for a calendar date and time (months from 1, as written).
    static func brokenDown(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int) -> tm {
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        return parts
    }

    /// Local wall time → instant: of the readings with and without DST, those that read back
    /// as the same wall time; the later if both do (as Foundation chose), `nil` if neither (a skipped hour).
    static func local(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int) -> Milliseconds? {
        var best: Int64?
        for dst: Int32 in [1, 0] {
            var parts = brokenDown(year, month, day, hour, minute, second)
            parts.tm_isdst = dst
            var t = mktime(&parts)
            var back = tm()
            guard localtime_r(&t, &back) != nil,
                  Int(back.tm_year) + 1900 == year, Int(back.tm_mon) + 1 == month, Int(back.tm_mday) == day,
                  Int(back.tm_hour) == hour, Int(back.tm_min) == minute, Int(back.tm_sec) == second else { continue }
            best = max(best ?? Int64(t), Int64(t))
        }
        return best.map { $0 * 1000 }
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// A cursor over ASCII text.
    struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { position == bytes.count }

        mutating func skip(_ character: Character) -> Bool {
            guard !atEnd, let ascii = character.asciiValue, bytes[position] == ascii else { return false }
            position += 1
            return true
        }

        /// A run of digits, as their values.
        mutating func digits() -> [UInt8]? {
            var out: [UInt8] = []
            while !atEnd, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                out.append(bytes[position] - UInt8(ascii: "0"))
                position += 1
            }
            return out
        }

        /// A number of 1 to `maxDigits` digits.
        mutating func number(maxDigits: Int) -> Int? {
            guard let digits = digits(), (1...maxDigits).contains(digits.count) else { return nil }
            return digits.reduce(0) { $0 * 10 + Int($1) }
        }

        /// `Z`, `UTC`, `GMT`, or `±hh`, `±hhmm`, `±hh:mm`: seconds east of UTC.
        mutating func zoneOffsetSeconds() -> Int? {
            if skip("Z") { return 0 }
            let rest = String(decoding: bytes[position...], as: UTF8.self)
            if rest == "UTC" || rest == "GMT" { position = bytes.count; return 0 }
            let sign: Int
            if skip("+") { sign = 1 } else if skip("-") { sign = -1 } else { return nil }
            guard let all = digits() else { return nil }
            var hours: Int, minutes = 0
            if all.count == 2 && skip(":") {
                guard let m = digits(), m.count == 2 else { return nil }
                hours = Int(all[0]) * 10 + Int(all[1])
                minutes = Int(m[0]) * 10 + Int(m[1])
            } else if all.count == 2 {
                hours = Int(all[0]) * 10 + Int(all[1])
            } else if all.count == 4 {
                hours = Int(all[0]) * 10 + Int(all[1])
                minutes = Int(all[2]) * 10 + Int(all[3])
            } else {
                return nil
            }
            guard hours <= 23, minutes <= 59 else { return nil }
            return sign * (hours * 3600 + minutes * 60)
        }
    }
}
