import Gateway
import ScaleCodec
import SignerCore
import SigningKeys

/// INTERIM adapter until `SignerCore/Payload` (the payload stream) lands: rebuilds the bytes a
/// `SignerPayloadJSON` signs, per polkadot-extension-protocol.md §2.2 —
/// `call ‖ extras (in signedExtensions order) ‖ additional-signed (same order)`, a field named twice
/// encoded once, BLAKE2b-256 when over 256 bytes — for the extensions of the §2.2 table. Unknown
/// extensions are treated as empty (as polkadot-js does) and flagged in the summary.
///
/// Known gap (documented in the report): `assetId` is taken as Option-prefixed when it starts with
/// `0x00`/`0x01`, else as an inner Location (§2.5 needs an XCM Location decoder to be exact).
struct InterimSigningPayload {
    let call: [UInt8]
    let extra: [UInt8]
    let additional: [UInt8]
    let unknownExtensions: [String]
    let fields: [String: WireJSON]

    /// The bytes the key signs.
    var signingBytes: [UInt8] {
        let payload = call + extra + additional
        return payload.count > 256 ? Blake2b.hash256(payload) : payload
    }

    static let empty: Set<String> = [
        "CheckNonZeroSender", "CheckWeight", "PrevalidateAttests", "AuthorizeCall", "EthSetOrigin",
        "StorageWeightReclaim", "WeightReclaim", "LimitParathreadCommits", "OnlyStakingAndClaims",
        "RestrictFunctionality", "TransactionCallFilter", "ValidateDoubleVoteReports", "CheckBlockGasLimit",
        "LockStakingStatus", "ValidateEquivocationReport", "DisallowSigned",
    ]

    init(_ payload: WireJSON) throws {
        guard case .object(let fields) = payload else { throw SignerError(.invalidInput, "payload is not an object") }
        self.fields = fields
        if let version = fields["version"], version != .number(4) {
            throw SignerError(.invalidInput, "field version: only extrinsic version 4 is supported")
        }
        call = try Self.bytes(fields, "method")
        guard case .array(let list) = fields["signedExtensions"] ?? .null else {
            throw SignerError(.invalidInput, "field signedExtensions")
        }
        var extra = ScaleWriter()
        var additional = ScaleWriter()
        var done: Set<String> = []
        var unknown: [String] = []
        // A field named by two extensions is encoded once, at its first position (objectSpread).
        func once(_ name: String, _ body: () throws -> Void) rethrows {
            if done.insert(name).inserted { try body() }
        }
        for item in list {
            guard let name = item.stringValue else { throw SignerError(.invalidInput, "field signedExtensions") }
            switch name {
            case "CheckSpecVersion", "CheckVersion":
                try once("specVersion") { additional.writeU32(try Self.u32(fields, "specVersion")) }
            case "CheckTxVersion":
                try once("transactionVersion") { additional.writeU32(try Self.u32(fields, "transactionVersion")) }
            case "CheckGenesis":
                try once("genesisHash") { additional.write(raw: try Self.hash(fields, "genesisHash")) }
            case "CheckMortality", "CheckEra":
                try once("era") {
                    let era = try Self.bytes(fields, "era")
                    _ = try ExtrinsicEra(bytes: era)
                    extra.write(raw: era)
                }
                try once("blockHash") { additional.write(raw: try Self.hash(fields, "blockHash")) }
            case "CheckNonce":
                try once("nonce") { extra.writeCompact(try Self.number(fields, "nonce", maxBytes: 8)) }
            case "ChargeTransactionPayment", "SkipCheckIfFeeless":
                try once("tip") { extra.writeCompact(try Self.number(fields, "tip", maxBytes: 16)) }
            case "ChargeAssetTxPayment":
                try once("tip") { extra.writeCompact(try Self.number(fields, "tip", maxBytes: 16)) }
                try once("assetId") { extra.write(raw: try Self.assetId(fields["assetId"])) }
            case "CheckMetadataHash":
                let mode = fields["mode"]?.numberValue ?? 0
                guard mode == 0 || mode == 1 else { throw SignerError(.invalidInput, "field mode") }
                try once("mode") { extra.writeU8(UInt8(mode == 1 ? 1 : 0)) }
                try once("metadataHash") {
                    if mode == 1 {
                        additional.writeU8(1)
                        additional.write(raw: try Self.hash(fields, "metadataHash"))
                    } else {
                        additional.writeU8(0)
                    }
                }
            default:
                if !Self.empty.contains(name) { unknown.append(name) }
            }
        }
        self.extra = extra.bytes
        self.additional = additional.bytes
        unknownExtensions = unknown
    }

    static func bytes(_ fields: [String: WireJSON], _ name: String) throws -> [UInt8] {
        guard let text = fields[name]?.stringValue, text.hasPrefix("0x"), let bytes = try? ScaleCodec.Hex.decode(text) else {
            throw SignerError(.invalidInput, "field \(name): hex expected")
        }
        return bytes
    }

    static func hash(_ fields: [String: WireJSON], _ name: String) throws -> [UInt8] {
        let bytes = try bytes(fields, name)
        guard bytes.count == 32 else { throw SignerError(.invalidInput, "field \(name): 32 bytes expected") }
        return bytes
    }

    /// A big-endian hex number of any length (or a JS number), §2.1.
    static func number(_ fields: [String: WireJSON], _ name: String, maxBytes: Int) throws -> UInt128 {
        switch fields[name] {
        case .number(let n)?:
            guard let v = UInt64(exactly: n) else { throw SignerError(.invalidInput, "field \(name)") }
            return UInt128(v)
        case .string?:
            var bytes = try bytes(fields, name)
            while bytes.first == 0 { bytes.removeFirst() }
            guard bytes.count <= maxBytes else { throw SignerError(.invalidInput, "field \(name): too large") }
            return bytes.reduce(UInt128(0)) { $0 << 8 | UInt128($1) }
        default:
            throw SignerError(.invalidInput, "field \(name)")
        }
    }

    static func u32(_ fields: [String: WireJSON], _ name: String) throws -> UInt32 {
        guard let v = UInt32(exactly: try number(fields, name, maxBytes: 4)) else {
            throw SignerError(.invalidInput, "field \(name)")
        }
        return v
    }

    static func assetId(_ value: WireJSON?) throws -> [UInt8] {
        guard let value, value != .null else { return [0] }
        guard let text = value.stringValue, let bytes = try? ScaleCodec.Hex.decode(text), !bytes.isEmpty else {
            throw SignerError(.invalidInput, "field assetId")
        }
        if bytes == [0] || bytes[0] == 1 { return bytes }
        return [1] + bytes
    }

    /// The signed extrinsic v4 (§2.9) for `signedTransaction`.
    func signedTransaction(accountId: [UInt8], multiSignature: [UInt8]) throws -> [UInt8] {
        guard let scheme = MultiSignature.Scheme(rawValue: multiSignature.first ?? 0xFF) else {
            throw SignerError(.invalidInput, "signature scheme")
        }
        let signature = try MultiSignature(scheme: scheme, signature: Array(multiSignature.dropFirst()))
        return SignedExtrinsicV4(address: try .account(accountId), signature: signature, extra: extra, call: call).encoded
    }
}
