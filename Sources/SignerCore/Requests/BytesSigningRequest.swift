/// A message to sign (`pub(bytes.sign)`).
public struct BytesSigningRequest: Sendable, Equatable {
    /// The address as the dapp sent it.
    public var address: String
    /// The account key the address resolved to; authorized for the source.
    public var accountKey: String
    /// The exact bytes that will be signed: the data wrapped in `<Bytes>…</Bytes>` unless it already
    /// was or carries the Ethereum message prefix (polkadot-js/common `u8aWrapBytes`).
    public var message: [UInt8]
    /// What the person sees (text when the data is printable UTF-8, hex otherwise).
    public var summary: [SummaryRow]

    /// Creates a request.
    public init(address: String, accountKey: String, message: [UInt8], summary: [SummaryRow]) {
        self.address = address
        self.accountKey = accountKey
        self.message = message
        self.summary = summary
    }
}
