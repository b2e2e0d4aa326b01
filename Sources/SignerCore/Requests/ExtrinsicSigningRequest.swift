/// A transaction to sign (`pub(extrinsic.sign)`), validated and prepared before it was queued. The
/// approval carries `prepared` itself: what the person approved is exactly what is signed.
public struct ExtrinsicSigningRequest: Sendable, Equatable {
    /// The address as the dapp sent it (any SS58 prefix).
    public var address: String
    /// The account key (`0x…` account id) the address resolved to; authorized for the source.
    public var accountKey: String
    /// The validated payload, the exact bytes to sign, and the summary built from them.
    public let prepared: PreparedPayload
    /// What the person sees: the account, then chain, call, amounts, mortality, call hash, warnings.
    public var summary: [SummaryRow]

    /// Creates a request.
    public init(address: String, accountKey: String, prepared: PreparedPayload, summary: [SummaryRow]) {
        self.address = address
        self.accountKey = accountKey
        self.prepared = prepared
        self.summary = summary
    }

    /// Whether the dapp asked for the signed transaction as well as the signature.
    public var wantsSignedTransaction: Bool { prepared.payload.withSignedTransaction }
}
