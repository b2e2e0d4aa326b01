/// A moment as the approval page writes it, `YYYY-MM-DD HH:MM:SS UTC`, by integer arithmetic (Howard
/// Hinnant's civil-from-days; no calendar, no locale, no floating point), for every protocol's rows.
package enum UTCTime {
    /// `seconds` since 1970 (negative before).
    package static func text(seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rem = seconds - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(y)-\(two(m))-\(two(d)) \(two(rem / 3600)):\(two(rem / 60 % 60)):\(two(rem % 60)) UTC"
    }
}
