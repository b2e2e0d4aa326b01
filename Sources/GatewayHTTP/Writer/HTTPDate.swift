import Glibc
import Synchronization

/// The `Date` header value in IMF-fixdate form (RFC 9110 §5.6.7), cached per second so a busy
/// server formats it once a second, not once a request.
enum HTTPDate {
    private static let cache = Mutex<(second: Int, text: [UInt8])>((-1, []))
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The current date, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`, as ASCII bytes.
    static func now() -> [UInt8] {
        var seconds = time(nil)
        let key = Int(seconds)
        return cache.withLock { cached in
            if cached.second == key { return cached.text }
            var parts = tm()
            gmtime_r(&seconds, &parts)
            let text = Array(format(parts).utf8)
            cached = (key, text)
            return text
        }
    }

    static func format(_ t: tm) -> String {
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let day = days[Int(max(0, min(6, t.tm_wday)))]
        let month = months[Int(max(0, min(11, t.tm_mon)))]
        return
            "\(day), \(two(t.tm_mday)) \(month) \(t.tm_year + 1900) \(two(t.tm_hour)):\(two(t.tm_min)):\(two(t.tm_sec)) GMT"
    }
}
