/// An Internet Computer request waiting for a person (ICRC-25 permissions or an ICRC-49 call):
/// the heading and the rows the approval page and the terminal show, and for a call the request id
/// that the signature will cover (recorded in the journal).
package struct IcpApprovalRequest: Sendable, Equatable {
    package let method: String
    package let title: String
    package let summary: [SummaryRow]
    package let requestId: [UInt8]

    package init(method: String, title: String, summary: [SummaryRow], requestId: [UInt8] = []) {
        self.method = method
        self.title = title
        self.summary = summary
        self.requestId = requestId
    }
}
