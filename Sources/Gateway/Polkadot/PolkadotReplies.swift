import Primitives
import SignerCore

/// polkadot-js's answers to a decided request (``BridgeReplies``), in the extension's wording
/// (``WireErrorText``, docs/reference/polkadot-extension.md): a connection answers the granted
/// addresses, a signature the signer's result, and anything that ended without a signature the
/// extension's error strings.
extension PolkadotAdapter: BridgeReplies {
    func connection(approved: Bool, granted: [String], failure: GatewayError?) -> WireReply.Body {
        guard approved else { return .error(WireErrorText.authorizationRejected) }
        guard failure == nil else { return .error(WireErrorText.notSaved) }
        return .response(authResponse(granted))
    }

    func stored(_ stored: Bool?) -> WireReply.Body {
        stored == true ? .response(true) : .error(WireErrorText.rejected)
    }

    func signature(_ delivery: ApprovalLifecycle.Delivery, value: (any Sendable)?, error: (any Error)?, source: String)
        -> WireReply.Body
    {
        switch delivery {
        case .result:
            guard let value = value as? JSONValue else { return .error(WireErrorText.cancelled) }
            return .response(value)
        case .rejection, .cancellation: return .error(WireErrorText.cancelled)
        case .failure: return .error(error.map { WireErrorText.text(for: $0, source: source) } ?? WireErrorText.cancelled)
        case .withheld: return .error(WireErrorText.notJournaled)
        }
    }

    func cancelled(_ subject: ApprovalSubject) -> WireReply.Body {
        switch subject {
        case .authorize: .error(WireErrorText.authorizationCancelled)
        case .adapter(let request) where request.method == PolkadotApproval.metadataMethod:
            .error(WireErrorText.rejected)
        case .adapter: .error(WireErrorText.cancelled)
        }
    }
}
