import COpenSSL

/// Reads OpenSSL's per-thread error queue. Callers clear the queue (`ERR_clear_error`) before an
/// OpenSSL call and read it right after, on the same thread, so the text belongs to that call.
enum OpenSSLErrors {
    /// Drains the queue into one line ("error:…:reason; …"), at most 4 entries; "no detail" if empty.
    /// OpenSSL error strings name the library and reason only, never key material.
    static func drain() -> String {
        var parts: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            if parts.count < 4 {
                var buffer = [CChar](repeating: 0, count: 256)
                ERR_error_string_n(code, &buffer, buffer.count)
                parts.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
        }
        return parts.isEmpty ? "no detail" : parts.joined(separator: "; ")
    }
}
