/// One labelled line of what a person is asked to approve ("chain: Polkadot", "call: …").
/// Values are plain text; the approval page escapes them.
public struct SummaryRow: Sendable, Equatable, Codable {
    /// The label ("chain", "call", "tip", …).
    public var label: String
    /// The value, already formatted for a person.
    public var value: String
    /// Whether this row should be shown as a warning (missing or outdated metadata, raw hex, …).
    public var isWarning: Bool

    /// Creates a row.
    public init(_ label: String, _ value: String, warning: Bool = false) {
        self.label = label
        self.value = value
        isWarning = warning
    }
}
