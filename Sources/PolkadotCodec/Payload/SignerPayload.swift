import Foundation
import Primitives
import ScaleCodec
import SigningKeys

/// A validated `SignerPayloadJSON` (`pub(extrinsic.sign)`), as polkadot-js `toPayload()` and
/// polkadot-api's pjs-signer send it (docs/reference/polkadot-extension.md §2.1).
///
/// Parsing is strict, because a payload that parses loosely is signed wrongly and fails on chain
/// as a "bad signature" nobody can diagnose. Numbers may be big-endian hex of any width
/// (`0x00000007`, PAPI pads to at least 4/16 bytes) or plain JSON integers; `era`, `method` and
/// `assetId` are raw SCALE hex; hashes must be 32 bytes; `era` must decode; `version` must be 4;
/// `mode` is 0 or 1 and is 1 exactly when `metadataHash` is present; an immortal era needs
/// `blockHash == genesisHash`; `address` must be valid SS58 (any prefix) or a 20- or 32-byte `0x`
/// address. Each failure throws a ``PolkadotCodecError`` whose code names the reason and the field.
/// Unknown extra fields are kept in ``otherFields``. Untrusted input; never traps.
package struct SignerPayload: Hashable, Sendable {
    /// Signer address as sent (SS58, or `0x` + 20 or 32 bytes of hex).
    package var address: String
    /// The account id behind `address` (32 bytes from SS58, or the 20 or 32 hex bytes).
    package var accountId: [UInt8]
    /// The SS58 prefix the address was written in, if SS58.
    package var addressPrefix: UInt16?
    /// `assetId` as given (raw hex bytes), `nil` when absent or null. See ``AssetIdResolver``.
    package var assetIdBytes: [UInt8]?
    /// The 32-byte hash of the block the era counts from (the genesis hash when immortal); signed.
    package var blockHash: [UInt8]
    /// Block number of `blockHash` (display only; not signed); `nil` when the dapp left it out.
    package var blockNumber: UInt64?
    /// The transaction's mortality (`CheckMortality`); signed.
    package var era: ExtrinsicEra
    /// The chain's 32-byte genesis hash (`CheckGenesis`); signed.
    package var genesisHash: [UInt8]
    /// The 32-byte metadata hash when `mode` is 1 (RFC-0078), else `nil`.
    package var metadataHash: [UInt8]?
    /// Call bytes (no length prefix).
    package var method: [UInt8]
    /// CheckMetadataHash mode: 0 disabled, 1 enabled.
    package var mode: UInt8
    /// The account nonce (`CheckNonce`, compact-encoded); signed.
    package var nonce: UInt64
    /// The runtime spec version (`CheckSpecVersion`); signed.
    package var specVersion: UInt32
    /// The tip in the fee asset's smallest unit (`ChargeTransactionPayment`); signed.
    package var tip: UInt128
    /// The runtime transaction version (`CheckTxVersion`); signed.
    package var transactionVersion: UInt32
    /// Extension identifiers in runtime order.
    package var signedExtensions: [String]
    /// The extrinsic version; always 4 (others are refused).
    package var version: Int
    /// Whether the dapp asked for the signed transaction back as well as the signature.
    package var withSignedTransaction: Bool
    /// Fields we do not interpret (kept as sent).
    package var otherFields: JSONObject

    static let knownKeys: Set<String> = [
        "address", "assetId", "blockHash", "blockNumber", "era", "genesisHash", "metadataHash", "method", "mode",
        "nonce", "specVersion", "tip", "transactionVersion", "signedExtensions", "version", "withSignedTransaction",
    ]

    /// Parses and validates JSON text. - Throws: ``PolkadotCodecError`` naming the reason and field.
    package init(json: [UInt8]) throws(PolkadotCodecError) {
        let value: JSONValue
        do {
            value = try JSONValue.parse(json)
        } catch {
            throw PolkadotCodecError(.badJSON, at: error.offset, "payload is not valid JSON (\(error.code): \(error.reason))")
        }
        try self.init(value: value)
    }

    /// Validates an already parsed payload (the gateway parses a request body once).
    /// - Throws: ``PolkadotCodecError`` naming the reason and field.
    package init(value: JSONValue) throws(PolkadotCodecError) {
        guard case .object(let obj) = value else { throw PolkadotCodecError(.badJSON, "payload must be a JSON object") }
        try self.init(fields: obj)
    }

    init(fields o: JSONObject) throws(PolkadotCodecError) {
        // version first: a v5 payload is refused before anything else is interpreted.
        let v: UInt64
        switch o["version"] {
        case nil: throw PolkadotCodecError(.missingField, "version is missing")
        case .number(let n)? where n.isUnsignedInteger: v = n.integer(as: UInt64.self) ?? .max
        default: throw PolkadotCodecError(.badField, "version must be the number 4")
        }
        guard v == 4 else {
            throw PolkadotCodecError(.unsupportedVersion, "version \(v): only extrinsic version 4 is signed")
        }
        version = 4

        genesisHash = try Self.hash(o, "genesisHash")
        blockHash = try Self.hash(o, "blockHash")
        method = try Self.bytes(o, "method")
        let eraBytes = try Self.bytes(o, "era")
        do { era = try ExtrinsicEra(bytes: eraBytes) } catch {
            throw PolkadotCodecError(.invalidEra, "era \(Hex.encode(eraBytes.prefix(4))) does not decode")
        }
        nonce = try Self.number(o, "nonce", max: UInt64.max)
        specVersion = UInt32(try Self.number(o, "specVersion", max: UInt64(UInt32.max)))
        transactionVersion = UInt32(try Self.number(o, "transactionVersion", max: UInt64(UInt32.max)))
        tip = try Self.bigNumber(o, "tip")
        blockNumber = Self.optional(o, "blockNumber") ? try Self.number(o, "blockNumber", max: UInt64.max) : nil

        guard let ext = o["signedExtensions"] else {
            throw PolkadotCodecError(.missingField, "signedExtensions is missing")
        }
        guard case .array(let items) = ext else {
            throw PolkadotCodecError(.badField, "signedExtensions must be an array")
        }
        signedExtensions = try items.map { (item) throws(PolkadotCodecError) -> String in
            // At most 128 characters; a string of at most 128 UTF-8 bytes has no more (no counting).
            guard case .string(let s) = item, !s.isEmpty, s.utf8.count <= 128 || s.count <= 128 else {
                throw PolkadotCodecError(.badField, "signedExtensions must hold identifier strings")
            }
            return s
        }

        // CheckMetadataHash (RFC-0078): mode is an enum {Disabled = 0, Enabled = 1}.
        switch o["mode"] {
        case nil, .null?: mode = 0
        case .number(let m)? where m.text == "0" || m.text == "1": mode = m.text == "1" ? 1 : 0
        case .number(let m)? where m.isUnsignedInteger:
            throw PolkadotCodecError(.badMode, "mode \(m.text.prefix(20)): only 0 (disabled) and 1 (enabled) exist")
        default: throw PolkadotCodecError(.badMode, "mode must be the number 0 or 1")
        }
        metadataHash = Self.optional(o, "metadataHash") ? try Self.hash(o, "metadataHash") : nil
        if mode == 1 && metadataHash == nil {
            throw PolkadotCodecError(.modeWithoutMetadataHash, "mode 1 needs metadataHash (the chain signs Some(hash))")
        }
        if mode == 0 && metadataHash != nil {
            throw PolkadotCodecError(.metadataHashWithoutMode, "metadataHash given with mode 0 (the chain signs None)")
        }

        if era == .immortal && blockHash != genesisHash {
            throw PolkadotCodecError(
                .immortalBlockHash, "an immortal era is checked against the genesis hash, not blockHash")
        }

        assetIdBytes = Self.optional(o, "assetId") ? try Self.assetBytes(o) : nil

        switch o["withSignedTransaction"] {
        case nil, .null?: withSignedTransaction = false
        case .bool(let b)?: withSignedTransaction = b
        default: throw PolkadotCodecError(.badField, "withSignedTransaction must be a boolean")
        }

        guard case .string(let addr)? = o["address"] else {
            throw PolkadotCodecError(o["address"] == nil ? .missingField : .badField, "address must be a string")
        }
        address = addr
        (accountId, addressPrefix) = try Self.account(addr)

        var others = JSONObject()
        for (k, v) in o where !Self.knownKeys.contains(k) { others[k] = v }
        otherFields = others
    }

    // MARK: field readers

    static func optional(_ o: JSONObject, _ key: String) -> Bool {
        switch o[key] {
        case nil, .null?: return false
        default: return true
        }
    }

    static func string(_ o: JSONObject, _ key: String) throws(PolkadotCodecError) -> String {
        guard let v = o[key] else { throw PolkadotCodecError(.missingField, "\(key) is missing") }
        guard case .string(let s) = v else { throw PolkadotCodecError(.badField, "\(key) must be a hex string") }
        return s
    }

    static func bytes(_ o: JSONObject, _ key: String) throws(PolkadotCodecError) -> [UInt8] {
        let s = try string(o, key)
        do { return try Hex.decode(s, prefix: .required) } catch {
            throw PolkadotCodecError(.notHex, "\(key) is not 0x-prefixed even-length hex")
        }
    }

    static func hash(_ o: JSONObject, _ key: String) throws(PolkadotCodecError) -> [UInt8] {
        let b = try bytes(o, key)
        guard b.count == 32 else { throw PolkadotCodecError(.badLength, "\(key) must be 32 bytes, got \(b.count)") }
        return b
    }

    static func assetBytes(_ o: JSONObject) throws(PolkadotCodecError) -> [UInt8] {
        guard case .string(let s)? = o["assetId"] else {
            throw PolkadotCodecError(.badAssetId, "assetId must be SCALE hex (polkadot-js or PAPI form)")
        }
        do { return try Hex.decode(s, prefix: .required) } catch {
            throw PolkadotCodecError(.notHex, "assetId is not 0x-prefixed even-length hex")
        }
    }

    /// A big-endian hex number of any width (leading zeros allowed) or a JSON integer, up to `max`.
    static func number(_ o: JSONObject, _ key: String, max: UInt64) throws(PolkadotCodecError) -> UInt64 {
        let v = try bigNumber(o, key)
        guard v <= UInt128(max) else { throw PolkadotCodecError(.overflow, "\(key) \(v) exceeds \(max)") }
        return UInt64(v)
    }

    /// As ``number(_:_:max:)`` up to u128 (`tip`).
    static func bigNumber(_ o: JSONObject, _ key: String) throws(PolkadotCodecError) -> UInt128 {
        guard let v = o[key] else { throw PolkadotCodecError(.missingField, "\(key) is missing") }
        switch v {
        case .number(let n):
            guard n.isUnsignedInteger else {
                throw PolkadotCodecError(.badField, "\(key) must be a non-negative integer")
            }
            guard let value = n.integer(as: UInt128.self) else {
                throw PolkadotCodecError(.overflow, "\(key) exceeds 128 bits")
            }
            return value
        case .string(let s):
            let b: [UInt8]
            do { b = try Hex.decode(s, prefix: .required) } catch {
                throw PolkadotCodecError(.notHex, "\(key) is not 0x-prefixed even-length hex")
            }
            let significant = b.drop { $0 == 0 }
            guard significant.count <= 16 else { throw PolkadotCodecError(.overflow, "\(key) exceeds 128 bits") }
            return significant.reduce(UInt128(0)) { $0 << 8 | UInt128($1) }
        default: throw PolkadotCodecError(.badField, "\(key) must be a hex string or an integer")
        }
    }

    /// SS58 (any prefix, checksum verified), or a `0x` address of 20 bytes (Ethereum-style chains) or 32.
    static func account(_ address: String) throws(PolkadotCodecError) -> ([UInt8], UInt16?) {
        if address.hasPrefix("0x") {
            guard let b = try? Hex.decode(address, prefix: .required), b.count == 20 || b.count == 32 else {
                throw PolkadotCodecError(.badAddress, "hex address must be 20 or 32 bytes")
            }
            return (b, nil)
        }
        do {
            let decoded = try SS58.decode(address)
            return (decoded.key, decoded.prefix)
        } catch {
            throw PolkadotCodecError(.badAddress, "address is not valid SS58")
        }
    }
}
