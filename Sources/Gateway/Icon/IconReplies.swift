import Primitives
import SignerCore

/// ICON's answers to a decided request (``BridgeReplies``) in the request's shape (ICONex Connect v1
/// `{id, code, result}`, a relay event, a relay JSON-RPC response; ``IconReplyShape``): a bind
/// answers the ICON address ticked, a signature its base64 value, anything else a Connect error
/// code. After the journal, an approved send goes to the node (``IconAdapter/afterJournal``).
struct IconReplies: BridgeReplies {
    let adapter: IconAdapter
    let shape: IconReplyShape
    /// The prepared signing request this answers (nil for a bind): what an approved send submits.
    var signing: IconSigningRequest? = nil

    func connection(approved: Bool, granted: [String], failure: GatewayError?) -> WireReply.Body {
        guard approved, failure == nil, let address = adapter.address(in: granted) else {
            return IconGateway.failure(shape, .cancelled)
        }
        return IconGateway.success(shape, .string(address))
    }

    /// ICON never proposes metadata; answered as declined should one be delivered.
    func stored(_ stored: Bool?) -> WireReply.Body { IconGateway.failure(shape, .cancelled) }

    func signature(_ delivery: ApprovalLifecycle.Delivery, value: (any Sendable)?, error: (any Error)?, source: String)
        -> WireReply.Body
    {
        switch delivery {
        case .result:
            guard let value = value as? JSONValue else { return IconGateway.failure(shape, .cancelled) }
            return IconGateway.success(shape, value)
        case .rejection, .cancellation: return IconGateway.failure(shape, .cancelled)
        case .failure: return IconGateway.failure(shape, error.map(IconConnectError.from) ?? .signFailed)
        case .withheld: return IconGateway.failure(shape, .signFailed)
        }
    }

    /// Only once journaled may a signature leave, to the site or to the ICON node.
    func afterJournal(
        _ subject: ApprovalSubject, _ delivery: ApprovalLifecycle.Delivery, body: WireReply.Body, signature: [UInt8]?
    ) async -> WireReply.Body {
        guard let request = signing, delivery == .result else { return body }
        return await adapter.afterJournal(request, body: body, signature: signature, shape: shape)
    }

    func cancelled(_ subject: ApprovalSubject) -> WireReply.Body { IconGateway.failure(shape, .cancelled) }
}
