/// An Internet Computer request waiting for a person (ICRC-25 permissions or an ICRC-49 call):
/// the heading and the rows the approval page and the terminal show, and for a call the request id
/// that the signature will cover (recorded in the journal).
public struct IcpApprovalRequest: Sendable, Equatable {
    public let method: String
    public let title: String
    public let summary: [SummaryRow]
    public let requestId: [UInt8]

    public init(method: String, title: String, summary: [SummaryRow], requestId: [UInt8] = []) {
        self.method = method
        self.title = title
        self.summary = summary
        self.requestId = requestId
    }
}
