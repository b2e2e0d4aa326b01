import Primitives

/// How much of a request's Details the approval page receives with `/api/state` (issue 24 item 10):
/// one site could otherwise queue calls with 110,000 parameters each and make the state tens of
/// megabytes and the page hundreds of thousands of elements, refetched on every change.
///
/// Per request: at most ``maxRows`` rows in order, plus every warning row up to ``maxWarningRows``
/// (a warning is never hidden behind "N more"), each value at most ``maxValueCharacters``
/// characters. Across the whole state: rows stop once ``maxStateCharacters`` of values were sent;
/// later requests keep their sentence, mentions and warnings, and say how many rows they hold. The
/// full text of one request is there on demand (``fullText(_:)``, `GET /api/details?id=`).
package enum ApprovalDetails {
    /// Rows of one request sent with the state.
    package static let maxRows = 40
    /// Warning rows of one request sent with the state (beyond ``maxRows`` if need be).
    package static let maxWarningRows = 20
    /// Characters of one row's value sent with the state.
    package static let maxValueCharacters = 1_000
    /// Characters of row values sent with the whole state.
    package static let maxStateCharacters = 400_000
    /// Headline warnings of one request sent with the state.
    package static let maxWarnings = 20

    /// What the page is sent of one request's rows.
    package struct Shown: Sendable, Equatable {
        /// The rows sent (values cut at ``maxValueCharacters``).
        package var rows: [SummaryRow]
        /// Which of `rows` had their value cut.
        package var cut: [Bool]
        /// Rows not sent ("N more").
        package var hiddenRows: Int
        /// Whether anything is only in the full text (a hidden row or a cut value).
        package var isPartial: Bool { hiddenRows > 0 || cut.contains(true) }

        /// The rows as the page reads them: `{label, value, warning}` and `cut: true` when cut.
        package var json: [JSONValue] {
            zip(rows, cut).map { row, cut in
                var o: [String: JSONValue] = [
                    "label": .string(row.label), "value": .string(row.value), "warning": .bool(row.isWarning),
                ]
                if cut { o["cut"] = .bool(true) }
                return .object(o)
            }
        }
    }

    /// The rows of one request to send, charging their characters to `budget` (the state's
    /// remaining ``maxStateCharacters``). Work is bounded by the rows sent, not the rows held.
    package static func shown(_ rows: [SummaryRow], budget: inout Int) -> Shown {
        var out: [SummaryRow] = []
        var cut: [Bool] = []
        var plain = 0
        var warnings = 0
        for row in rows {
            let wanted = row.isWarning ? warnings < maxWarningRows : plain < maxRows
            // Stop scanning once neither kind can be added (a request may hold 110,000 rows).
            if budget <= 0 || (plain >= maxRows && warnings >= maxWarningRows) { break }
            guard wanted else { continue }
            var shownRow = row
            let isCut = row.value.utf8.count > maxValueCharacters && row.value.count > maxValueCharacters
            if isCut { shownRow.value = DisplayText.clipped(row.value, maxValueCharacters) }
            budget -= shownRow.value.utf8.count + row.label.utf8.count
            out.append(shownRow)
            cut.append(isCut)
            if row.isWarning { warnings += 1 } else { plain += 1 }
        }
        return Shown(rows: out, cut: cut, hiddenRows: rows.count - out.count)
    }

    /// Every row in full, one `label: value` per line (continuation lines of a multi-line value
    /// indented), for the page's "show all" and the terminal.
    package static func fullText(_ rows: [SummaryRow]) -> String {
        var out = ""
        for row in rows {
            let lines = row.value.split(separator: "\n", omittingEmptySubsequences: false)
            out += (row.isWarning ? "! " : "") + row.label + ": " + lines.joined(separator: "\n    ") + "\n"
        }
        return out
    }
}
