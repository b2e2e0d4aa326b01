/// One labelled line of what a person is asked to approve ("chain: Polkadot", "call: …").
/// Values are plain text; the approval page escapes them. Label and value pass through
/// ``DisplayText/visible(_:)`` here, so no row a site influenced carries a control, format or
/// line-separator character (only ``init(_:lines:warning:)`` keeps line breaks, between lines).
package struct SummaryRow: Sendable, Equatable, Codable {
    /// The label ("chain", "call", "tip", …).
    package var label: String
    /// The value, already formatted for a person.
    package var value: String
    /// Whether this row should be shown as a warning (missing or outdated metadata, raw hex, …).
    package var isWarning: Bool

    /// Creates a row.
    package init(_ label: String, _ value: String, warning: Bool = false) {
        self.label = DisplayText.visible(label)
        self.value = DisplayText.visible(value)
        isWarning = warning
    }

    /// A row whose value is several lines (a decoded call's structure): each line made visible,
    /// the line breaks between them kept.
    package init(_ label: String, lines value: String, warning: Bool = false) {
        self.label = DisplayText.visible(label)
        self.value = DisplayText.visibleLines(value)
        isWarning = warning
    }
}
