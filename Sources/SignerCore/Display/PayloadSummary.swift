import ScaleCodec
import SigningKeys

/// What a person reads before approving an extrinsic signature: chain, spec version (and whether
/// our metadata is for it), signer, nonce, tip, fee asset, lifetime ("valid from block B to block
/// D"), the decoded call and its hash, and warnings.
///
/// Built from a validated ``SignerPayload``, the ``SigningPayload`` rebuilt from it and, when
/// we have it, the chain's metadata. A call that does not decode is reported, never hidden.
public struct PayloadSummary: Hashable, Sendable {
    public var chainName: String?
    public var genesisHash: [UInt8]
    public var specVersion: UInt32
    public var transactionVersion: UInt32
    /// The spec version of the metadata used, if any and if it says.
    public var metadataSpecVersion: UInt32?
    public var signer: String
    public var nonce: UInt64
    public var tip: UInt128
    public var feeAsset: ScaleValue?
    public var era: ExtrinsicEra
    /// The block the mortality counts from (`nil` when the dapp did not say).
    public var blockNumber: UInt64?
    public var metadataHash: [UInt8]?
    public var call: DecodedCall?
    /// Why the call could not be decoded (no metadata, or the error).
    public var callProblem: String?
    /// BLAKE2b-256 of the call bytes.
    public var callHash: [UInt8]
    public var warnings: [String]
    public var properties: ChainProperties

    /// Whether the metadata is for the payload's spec version (`nil` when unknown).
    public var metadataMatches: Bool? { metadataSpecVersion.map { $0 == specVersion } }
    /// First valid block (`nil` when immortal).
    public var validFrom: UInt64? {
        guard era != .immortal, let blockNumber else { return nil }
        return era.birth(current: blockNumber)
    }
    /// First block at which it is no longer valid (`nil` when immortal).
    public var validUntil: UInt64? { blockNumber.flatMap { era.death(current: $0) } }

    /// Summarises a payload.
    public init(
        payload p: SignerPayload, signing: SigningPayload, metadata: RuntimeMetadata? = nil,
        provided: ChainProperties? = nil
    ) {
        properties = ChainProperties.resolve(genesisHash: p.genesisHash, provided: provided, metadata: metadata)
        chainName = properties.name
        genesisHash = p.genesisHash
        specVersion = p.specVersion
        transactionVersion = p.transactionVersion
        metadataSpecVersion = metadata?.specVersion
        nonce = p.nonce
        tip = p.tip
        feeAsset = signing.asset?.location
        era = p.era
        blockNumber = p.blockNumber
        metadataHash = p.metadataHash
        callHash = Blake2b.hash256(p.method)
        var warnings = signing.warnings
        let prefix = properties.ss58Prefix
        if p.accountId.count == 32, let prefix, let s = try? SS58.encode(p.accountId, prefix: prefix) {
            signer = s
        } else {
            signer = p.address
        }
        if let metadata {
            do {
                call = try ValueDecoder(metadata: metadata).decodeCall(p.method)
            } catch {
                callProblem = "the call does not decode with this metadata: \(error)"
                warnings.append(callProblem ?? "")
            }
            if let m = metadataSpecVersion, m != p.specVersion {
                warnings.append(
                    "metadata is for spec version \(m), the payload for \(p.specVersion): the call may be shown wrongly"
                )
            }
        } else {
            callProblem = "no metadata for this chain: the call cannot be shown"
        }
        self.warnings = warnings
    }

    /// The renderer for this chain: SS58 in the chain's prefix, token amounts.
    public var renderer: ValueRenderer { properties.renderer }

    /// Mortality in words.
    public var mortalityText: String {
        guard case .mortal(let period, _) = era else { return "immortal (valid forever)" }
        guard let from = validFrom, let until = validUntil else {
            return "mortal, \(period) blocks (the block it counts from was not given)"
        }
        return "valid from block \(from) to block \(until) (\(period) blocks)"
    }

    /// The summary as lines of text.
    public var text: String {
        let r = renderer
        var lines: [String] = []
        let chain = chainName ?? "unknown chain"
        lines.append("chain:         \(chain) (genesis \(HexCoding.encode(genesisHash)))")
        var spec = "spec version:  \(specVersion), transaction version \(transactionVersion)"
        switch metadataMatches {
        case true?: spec += " (metadata matches)"
        case false?: spec += " (metadata is for \(metadataSpecVersion ?? 0): MISMATCH)"
        case nil: spec += metadataSpecVersion == nil && call == nil ? " (no metadata)" : ""
        }
        lines.append(spec)
        lines.append("signer:        \(signer)")
        lines.append("nonce:         \(nonce)")
        lines.append("tip:           \(r.balanceText(tip))")
        lines.append(
            "fee asset:     "
                + (feeAsset.map { r.inline($0) } ?? "native token" + (properties.token.map { " (\($0.symbol))" } ?? ""))
        )
        lines.append("mortality:     \(mortalityText)")
        lines.append(
            "metadata hash: "
                + (metadataHash.map { "checked (CheckMetadataHash mode 1): \(HexCoding.encode($0))" } ?? "not checked"))
        if let call {
            lines.append("call:")
            lines.append(r.text(call, indent: 1))
        } else {
            lines.append("call:          \(callProblem ?? "not decoded")")
        }
        lines.append("call hash:     \(HexCoding.encode(callHash))")
        for w in warnings { lines.append("WARNING:       \(w)") }
        return lines.joined(separator: "\n")
    }

    /// The summary as JSON.
    public var json: JSONValue {
        let r = renderer
        var pairs: [(String, JSONValue)] = [
            ("chain", chainName.map { .string($0) } ?? .null),
            ("genesisHash", .string(HexCoding.encode(genesisHash))),
            ("specVersion", .number(String(specVersion))),
            ("transactionVersion", .number(String(transactionVersion))),
            ("metadataSpecVersion", metadataSpecVersion.map { .number(String($0)) } ?? .null),
            ("metadataMatches", metadataMatches.map { .bool($0) } ?? .null),
            ("signer", .string(signer)),
            ("nonce", .number(String(nonce))),
            ("tip", r.json(.balance(tip))),
            ("feeAsset", feeAsset.map { r.json($0) } ?? .null),
        ]
        var mortality: [(String, JSONValue)] = [("immortal", .bool(era == .immortal))]
        if case .mortal(let period, let phase) = era {
            mortality += [("period", .number(String(period))), ("phase", .number(String(phase)))]
            if let from = validFrom, let until = validUntil {
                mortality += [("validFrom", .number(String(from))), ("validUntil", .number(String(until)))]
            }
        }
        pairs.append(("mortality", .object(mortality)))
        pairs.append(("metadataHash", metadataHash.map { .string(HexCoding.encode($0)) } ?? .null))
        pairs.append(("call", call.map { r.json($0) } ?? .null))
        if let callProblem { pairs.append(("callProblem", .string(callProblem))) }
        pairs.append(("callHash", .string(HexCoding.encode(callHash))))
        pairs.append(("warnings", .array(warnings.map { .string($0) })))
        return .object(pairs)
    }
}
