/// A protocol adapter's request, protocol-neutral (docs/architecture.md, "The seam"): what the
/// person reads (the title, the rows, the warnings among them), what the journal records (the
/// protocol and method, the account, the digest of exactly what the signature covers), and nothing
/// a protocol would have to be switched over for. The Internet Computer (ICRC-25 permissions,
/// ICRC-49 calls) and Ethereum (EIP-1193) requests are queued as this.
package struct AdapterApproval: Sendable, Equatable {
    /// The journal's protocol name (`icp`, `ethereum`); also the approval page's `kind`.
    package let wallet: String
    /// The wire method that asked (`icrc49_call_canister`, `eth_sendTransaction`).
    package let method: String
    /// The heading: a question naming the site (`Call transfer for https://dapp.example?`).
    package let title: String
    /// What the person reads, in order; rows labelled `warning` are the request's warnings.
    package let summary: [SummaryRow]
    /// The bytes the signature covers (an ICP request id, an Ethereum signing hash); empty when
    /// nothing is signed (a permission, a connection).
    package let requestId: [UInt8]
    /// The one sentence the approval page and the terminal show first; nil: the `call` row, else
    /// the title.
    package let sentence: String?
    /// The account that signs, as the protocol writes it (`0x…` EIP-55, a principal); empty when none.
    package let account: String

    package init(
        method: String, title: String, summary: [SummaryRow], requestId: [UInt8] = [], wallet: String = "icp",
        sentence: String? = nil, account: String = ""
    ) {
        self.wallet = wallet
        self.method = method
        self.title = title
        self.summary = summary
        self.requestId = requestId
        self.sentence = sentence
        self.account = account
    }

    /// The rows that are warnings.
    package var warnings: [String] { summary.filter { $0.label == "warning" }.map(\.value) }
}
