/// What a pending approval asks the person to decide.
///
/// `indirect`: a subject travels by value through the queue, the decision, the approval page's
/// state and the journal; boxed, each copy is one retain instead of one per field of its request.
package indirect enum ApprovalSubject: Sendable, Equatable {
    /// `pub(authorize.tab)`: connect a site and choose the accounts it sees.
    case authorize(AuthorizationRequest)
    /// A protocol adapter's request, protocol-neutral (``AdapterApproval``): every signature
    /// (polkadot-js `extrinsic.sign`/`bytes.sign`; ICON Connect `sign`/`sendICX`/`sendToken`, relay
    /// `REQUEST_JSON-RPC`/`REQUEST_SIGNING`; ICRC-49 calls; Ethereum), ICRC-25 permissions and
    /// polkadot-js metadata updates.
    case adapter(AdapterApproval)

    /// Whether approving it makes a signature.
    package var signs: Bool {
        switch self {
        case .adapter(let request): !request.requestId.isEmpty
        case .authorize: false
        }
    }
}
