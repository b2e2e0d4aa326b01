import Primitives

/// Which accounts exist and what an address stands for. Never hands out key material.
package protocol AccountDirectory: Sendable {
    /// Every account that may be offered to sites, in display order.
    func accounts() -> [SignerAccount]
    /// The account key (`0x…` account id) an address stands for, whatever its SS58 prefix; `nil` when
    /// the address is malformed. Untrusted input: must not trap.
    func accountKey(forAddress address: String) -> String?
    /// The account whose key is `key`, or nil.
    func account(key: String) -> SignerAccount?
}

extension AccountDirectory {
    /// By a walk of `accounts()` (a directory with an index answers directly).
    package func account(key: String) -> SignerAccount? { accounts().first { $0.key == key } }
}

/// Prepares requests for a person and signs exactly what the person approved. ``SigningService`` is
/// the implementation over unlocked keys; the gateway sees only this protocol and the typed results,
/// never a key.
package protocol RequestSigner: AccountDirectory {
    /// Validates an untrusted `SignerPayloadJSON`, builds the exact bytes the chain checks and the
    /// summary a person reads. The returned request is what is queued, shown, and later signed.
    /// - Throws: ``SignerError`` (its text may be shown to the dapp: no secrets, no echo).
    func prepareExtrinsic(payload: JSONValue, account: SignerAccount) throws -> ExtrinsicSigningRequest
    /// A `pub(bytes.sign)` request for `account`: the exact bytes to sign and what the person reads.
    func prepareMessage(data: String, address: String, account: SignerAccount) -> BytesSigningRequest
    /// Signs the approved transaction: the very `PreparedPayload` in the request, never rebuilt.
    /// - Throws: ``SignerError`` when the key is gone or, when asked for, the signed transaction
    ///   cannot be built (never silently dropped).
    func signExtrinsic(_ request: ExtrinsicSigningRequest) throws -> ExtrinsicSignature
    /// Signs an approved message (its bytes already wrapped as polkadot-js wraps them).
    func signMessage(_ request: BytesSigningRequest) throws -> MessageSignature
    /// ICON: validates an untrusted v3 transaction (`IconCodec`) for an `icon` account and builds
    /// what a person reads; `now` is the wall clock in microseconds (for the timestamp row).
    /// - Throws: `IconCodecError` for a refused transaction, ``SignerError`` otherwise.
    func prepareIcon(
        transaction: JSONValue, action: IconSigningRequest.Action, account: SignerAccount, now: Int64
    ) throws -> IconSigningRequest
    /// ICON blind signing of a 32-byte hash a site computed (only after the per-site opt-in).
    func prepareIconHash(hash: [UInt8], account: SignerAccount) throws -> IconSigningRequest
    /// Signs the approved ICON request: the hash computed when it was prepared, never recomputed
    /// from anything else.
    func signIcon(_ request: IconSigningRequest) throws -> IconSignature
    /// Ethereum: signs a 32-byte hash with the key of an `ethereum` account (``SignerAccount/type``;
    /// its `key` and `address` are the EIP-55 address). The hash is what the adapter computed from the
    /// request the person approved (EIP-191, EIP-712, a transaction's signing hash) and nothing else.
    /// - Returns: r ‖ s ‖ yParity (65 bytes, low-S).
    /// - Throws: ``SignerError`` `unknownAccount` when there is no such key.
    func signEthereumHash(_ hash: [UInt8], account: SignerAccount) throws -> [UInt8]
}

extension RequestSigner {
    /// Signers without ICON keys refuse ICON requests.
    package func prepareIcon(
        transaction: JSONValue, action: IconSigningRequest.Action, account: SignerAccount, now: Int64
    ) throws -> IconSigningRequest {
        throw SignerError(.unknownAccount, "no ICON keys")
    }
    package func prepareIconHash(hash: [UInt8], account: SignerAccount) throws -> IconSigningRequest {
        throw SignerError(.unknownAccount, "no ICON keys")
    }
    package func signIcon(_ request: IconSigningRequest) throws -> IconSignature {
        throw SignerError(.unknownAccount, "no ICON keys")
    }
    /// Signers without Ethereum keys refuse Ethereum requests.
    package func signEthereumHash(_ hash: [UInt8], account: SignerAccount) throws -> [UInt8] {
        throw SignerError(.unknownAccount, "no Ethereum keys")
    }
}
