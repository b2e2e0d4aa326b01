import IconCodec
import Primitives

/// An ICON request a person approves (docs/reference/icon.md, docs/protocol.md "ICON"): the
/// validated transaction itself (what is hashed and signed after approval, never rebuilt) or, for
/// blind signing, a bare 32-byte hash; and the rows a person reads.
package struct IconSigningRequest: Sendable, Equatable {
    /// What happens after approval.
    package enum Action: Sendable, Equatable {
        /// Connect `sign`: the signature goes back to the dapp, which sends the transaction itself.
        case signOnly
        /// Connect `sendICX`/`sendToken`, relay `REQUEST_JSON-RPC`: signed, then submitted to the
        /// configured ICON node; the node's transaction hash goes back.
        case send
        /// Relay `REQUEST_SIGNING`: a hash the site computed (blind signing, per-site opt-in).
        case blindHash
    }

    package var action: Action
    /// The `hx…` address of the signing account (its account key).
    package var accountKey: String
    /// The prepared transaction (nil for `blindHash`).
    package var transaction: IconTransaction?
    /// The 32 bytes that will be signed: the transaction's SHA3-256 hash, or the site's hash.
    package var hash: [UInt8]
    /// What the person reads.
    package var summary: [SummaryRow]
    /// Whether the request came from a link (`GET /icon/connect?caller=`): the site identity is the
    /// referring page's origin (`Referer`), which Sigil cannot verify, so a plain link posted on a
    /// site the person trusts shows that site. The headline and the terminal prompt say so.
    package var fromLink = false

    package init(action: Action, accountKey: String, transaction: IconTransaction?, hash: [UInt8], summary: [SummaryRow])
    {
        self.action = action
        self.accountKey = accountKey
        self.transaction = transaction
        self.hash = hash
        self.summary = summary
    }
}

/// The signature of an approved ICON request.
package struct IconSignature: Sendable, Hashable {
    /// 65 bytes `r ‖ s ‖ recid`.
    package let signature: [UInt8]
    /// The wire form: standard Base64 (88 characters).
    package let base64: String
    /// The signed `icx_sendTransaction` params (with `signature`), when a transaction was signed.
    package let signedTransaction: JSONValue?

    package init(signature: [UInt8], base64: String, signedTransaction: JSONValue?) {
        self.signature = signature
        self.base64 = base64
        self.signedTransaction = signedTransaction
    }
}
