/// A transaction to sign (`pub(extrinsic.sign)`), validated before it was queued.
public struct ExtrinsicSigningRequest: Sendable, Equatable {
    /// The address as the dapp sent it (any SS58 prefix).
    public var address: String
    /// The account key (`0x…` public key) the address resolved to; authorized for the source.
    public var accountKey: String
    /// The `SignerPayloadJSON` object as the gateway serialised it again from the parsed request (not
    /// the bytes received); parsed again and signed only after approval.
    public var payloadJSON: [UInt8]
    /// What the person sees: chain, call, amounts, mortality, call hash, warnings.
    public var summary: [SummaryRow]

    /// Creates a request.
    public init(address: String, accountKey: String, payloadJSON: [UInt8], summary: [SummaryRow]) {
        self.address = address
        self.accountKey = accountKey
        self.payloadJSON = payloadJSON
        self.summary = summary
    }
}
