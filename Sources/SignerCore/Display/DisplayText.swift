/// The one gate between text a site supplied and the person's eyes (issue 24 item 8): every summary
/// row (``SummaryRow``), headline, mention and warning passes through ``visible(_:)``, for every
/// protocol, so the approval page and the terminal show exactly the characters that were sent.
///
/// Characters that change how text is laid out or read instead of showing up: Unicode general
/// categories Cc (control: `\n`, ESC, DEL, C1), Cf (format: bidirectional overrides and isolates,
/// zero-width space/joiners, soft hyphen, BOM, tags) and Zl/Zp (U+2028, U+2029). Each is written as
/// an escape (`\n`, `\r`, `\t`, otherwise `\u{200B}`), never interpreted: a method name holding
/// `\n! Verified: …` stays on its own line as `\n! Verified: …`.
package enum DisplayText {
    /// `text` with every invisible or layout character escaped. Cheap for printable ASCII.
    package static func visible(_ text: String) -> String {
        let plain = text.utf8.withContiguousStorageIfAvailable { utf8 in !utf8.contains { $0 < 0x20 || $0 >= 0x7F } }
        if plain == true { return text }
        guard text.unicodeScalars.contains(where: isInvisible) else { return text }
        var out = String.UnicodeScalarView()
        for u in text.unicodeScalars {
            guard isInvisible(u) else {
                out.append(u)
                continue
            }
            switch u {
            case "\n": out.append(contentsOf: #"\n"#.unicodeScalars)
            case "\r": out.append(contentsOf: #"\r"#.unicodeScalars)
            case "\t": out.append(contentsOf: #"\t"#.unicodeScalars)
            default:
                let hex = String(u.value, radix: 16, uppercase: true)
                let padded = String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                out.append(contentsOf: "\\u{\(padded)}".unicodeScalars)
            }
        }
        return String(out)
    }

    /// Lines kept as lines (a decoded call's own structure), each line made ``visible(_:)``.
    package static func visibleLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { visible(String($0)) }.joined(
            separator: "\n")
    }

    /// Whether `u` is control, format or a line/paragraph separator (Cc, Cf, Zl, Zp).
    package static func isInvisible(_ u: Unicode.Scalar) -> Bool {
        switch u.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    /// `text` cut to `limit` characters with "…", never inside an escape written by ``visible(_:)``.
    package static func clipped(_ text: String, _ limit: Int) -> String {
        guard text.count > limit, limit > 1 else { return text }
        var cut = text.prefix(limit - 1)
        // An escape is at most `\u{10FFFF}` (10 characters): drop a partial one at the end.
        if let slash = cut.suffix(10).lastIndex(of: "\\"), !cut[slash...].contains("}"),
            cut[slash...].hasPrefix("\\u")
        {
            cut = cut[..<slash]
        }
        return String(cut) + "…"
    }
}
