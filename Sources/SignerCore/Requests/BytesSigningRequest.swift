/// A message to sign (`pub(bytes.sign)`).
package struct BytesSigningRequest: Sendable, Equatable {
    /// The address as the dapp sent it.
    package var address: String
    /// The account key the address resolved to; authorized for the source.
    package var accountKey: String
    /// The exact bytes that will be signed: the data wrapped in `<Bytes>…</Bytes>` unless it already
    /// was or carries the Ethereum message prefix (polkadot-js/common `u8aWrapBytes`).
    package var message: [UInt8]
    /// What the person sees (text when the data is printable UTF-8, hex otherwise).
    package var summary: [SummaryRow]

    /// Creates a request.
    package init(address: String, accountKey: String, message: [UInt8], summary: [SummaryRow]) {
        self.address = address
        self.accountKey = accountKey
        self.message = message
        self.summary = summary
    }
}
