import Primitives
import SignerCore

/// The wire protocols a site can speak to the gateway. Each registers its closed set of methods into
/// the ``MethodRegistry`` and brings its own ``WireErrorMapper``.
package enum WireProtocol: String, Sendable, Hashable, CaseIterable {
    /// The polkadot-js extension protocol (`pub(...)` messages).
    case polkadot
    /// ICON: the ICONex/Hana relay events and ICONex Connect v1 (`icon(...)` messages).
    case icon
    /// The Internet Computer's ICRC signer standards (JSON-RPC 2.0, `icrc…` methods).
    case icrc
}

/// One method of one wire protocol: its name, its typed parameters and its typed result. Parameters
/// are decoded from the request's already-parsed JSON (`JSONValueDecoder`: integers exact, no
/// floats); results are encoded with `JSONValueEncoder`.
package protocol WireMethod: Sendable {
    associatedtype Params: Decodable & Sendable
    associatedtype Result: Encodable & Sendable
    /// The message name on the wire, e.g. `pub(extrinsic.sign)`.
    static var name: String { get }
    /// The protocol it belongs to (which error mapper answers its failures).
    static var wireProtocol: WireProtocol { get }
    /// Whether the site must be connected before the method runs (polkadot-js `ensureUrlAuthorized`).
    static var needsConnectedSite: Bool { get }
}

/// Parameters that are not read (any JSON, including `null`, is accepted).
package struct NoParams: Decodable, Sendable {
    package init(from decoder: any Decoder) throws {}
}

/// Turns a failure into the protocol's reply body. Every failure of a method becomes a reply shaped
/// as its protocol expects; nothing throws past the transport.
package protocol WireErrorMapper: Sendable {
    func body(for error: any Error, source: String) -> WireReply.Body
}

/// polkadot-js error strings (``WireErrorText``), so dapps matching on them keep working.
package struct PolkadotErrorMapper: WireErrorMapper {
    package init() {}
    package func body(for error: any Error, source: String) -> WireReply.Body {
        .error(WireErrorText.text(for: error, source: source))
    }
}

extension WireRequest {
    /// The typed parameters of `M` from the request (absent or `null` reads as `{}`).
    /// - Throws: `SignerError.invalidInput` naming the method and field (never its value).
    func params<M: WireMethod>(_: M.Type) throws -> M.Params {
        let value: JSONValue = request == .null ? [:] : request
        do {
            return try JSONValueDecoder().decode(M.Params.self, from: value)
        } catch {
            throw SignerError(.invalidInput, "\(M.name): \(error.reason)")
        }
    }
}
