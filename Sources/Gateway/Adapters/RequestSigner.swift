import Primitives
import SignerCore

/// Checks, describes and signs requests: the part of the gateway that touches payload formats and
/// keys, behind a protocol so that `Gateway` itself never sees key bytes.
public protocol RequestSigner: Sendable {
    /// Validates a `SignerPayloadJSON` (untrusted) and describes it for a person, using stored
    /// metadata when it matches. Called before the request is queued.
    /// - Throws: an error whose message may be shown to the dapp (no secrets, no echo).
    func describeExtrinsic(payload: JSONValue, account: GatewayAccount) async throws -> [SummaryRow]
    /// Signs an approved transaction.
    /// - Returns: the `MultiSignature`-prefixed signature (`0x…`), and the signed extrinsic when
    ///   `withSignedTransaction` was asked for and the signer can build it.
    func signExtrinsic(payload: JSONValue, account: GatewayAccount) async throws -> (
        signature: String, signedTransaction: String?
    )
    /// Signs an approved message (already wrapped in `<Bytes>…</Bytes>` as needed).
    /// - Returns: the signature without a MultiSignature prefix (`0x…`), as polkadot-js returns it.
    func signMessage(_ message: [UInt8], account: GatewayAccount) async throws -> String
}
