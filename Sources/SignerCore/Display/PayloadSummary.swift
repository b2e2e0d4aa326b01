import Foundation
import PolkadotCodec
import Primitives
import ScaleCodec
import SigningKeys

/// What a person reads before approving an extrinsic signature: chain, spec version (and whether
/// our metadata is for it), signer, nonce, tip, fee asset, lifetime ("valid from block B to block
/// D"), the decoded call and its hash, and warnings.
///
/// Built from a validated ``SignerPayload``, the ``SigningPayload`` rebuilt from it and, when
/// we have it, the chain's metadata. A call that does not decode is reported, never hidden.
package struct PayloadSummary: Hashable, Sendable {
    package var chainName: String?
    package var genesisHash: [UInt8]
    package var specVersion: UInt32
    package var transactionVersion: UInt32
    /// The spec version of the metadata used, if any and if it says.
    package var metadataSpecVersion: UInt32?
    package var signer: String
    package var nonce: UInt64
    package var tip: UInt128
    package var feeAsset: ScaleValue?
    package var era: ExtrinsicEra
    /// The block the mortality counts from (`nil` when the dapp did not say).
    package var blockNumber: UInt64?
    package var metadataHash: [UInt8]?
    /// What Sigil established about ``metadataHash`` (RFC-0078, ``MetadataHashStatus``).
    package var metadataHashStatus: MetadataHashStatus
    package var call: DecodedCall?
    /// Why the call could not be decoded (no metadata, or the error).
    package var callProblem: String?
    /// Whether the chain's metadata was there and the call did not decode with it: Sigil cannot say
    /// what the call does (signing it is blind signing, a per-site opt-in: docs/blind-signing.md).
    package private(set) var callUndecodable = false
    /// BLAKE2b-256 of the call bytes.
    package var callHash: [UInt8]
    package var warnings: [String]
    package var properties: ChainProperties

    /// Whether the metadata is for the payload's spec version (`nil` when unknown).
    package var metadataMatches: Bool? { metadataSpecVersion.map { $0 == specVersion } }
    /// First valid block (`nil` when immortal).
    package var validFrom: UInt64? {
        guard era != .immortal, let blockNumber else { return nil }
        return era.birth(current: blockNumber)
    }
    /// First block at which it is no longer valid (`nil` when immortal).
    package var validUntil: UInt64? { blockNumber.flatMap { era.death(current: $0) } }

    /// Summarises a payload. `metadataHashStatus` is what the signer found comparing the payload's
    /// metadata hash with approved metadata (without it: unverified for mode 1, unused for mode 0).
    package init(
        payload p: SignerPayload, signing: SigningPayload, metadata: RuntimeMetadata? = nil,
        provided: ChainProperties? = nil, metadataHashStatus: MetadataHashStatus? = nil
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
        self.metadataHashStatus = metadataHashStatus ?? .unchecked(p)
        callHash = Blake2b.hash256(p.method)
        var warnings = signing.warnings
        if let conflict = Self.conflictWithKnownChain(genesisHash: p.genesisHash, provided: provided) {
            warnings.append(conflict)
        }
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
                callUndecodable = true
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
    package var renderer: ValueRenderer { properties.renderer }

    /// Mortality in words.
    package var mortalityText: String {
        guard case .mortal(let period, _) = era else { return "immortal (valid forever)" }
        guard let from = validFrom, let until = validUntil else {
            return "mortal, \(period) blocks (the block it counts from was not given)"
        }
        return "valid from block \(from) to block \(until) (\(period) blocks)"
    }

    /// A warning when a site's chain properties contradict what Sigil knows for this genesis hash:
    /// a site could otherwise show 1,000 DOT as "1 WND" (decimals 13, symbol WND) on a known chain.
    static func conflictWithKnownChain(genesisHash: [UInt8], provided: ChainProperties?) -> String? {
        guard let provided, let known = KnownChains.chain(genesisHash: genesisHash) else { return nil }
        var differences: [String] = []
        if let name = provided.name, name != known.name { differences.append("name \"\(name)\"") }
        if let token = provided.token, token != known.token {
            differences.append(
                "token \(token.symbol.isEmpty ? "(none)" : token.symbol) with \(token.decimals) decimals")
        }
        if let prefix = provided.ss58Prefix, prefix != known.ss58Prefix {
            differences.append("address prefix \(prefix)")
        }
        guard !differences.isEmpty else { return nil }
        return "the site describes this chain with \(differences.joined(separator: ", ")), but its genesis hash is "
            + "\(known.name) (\(known.token.symbol), \(known.token.decimals) decimals, prefix \(known.ss58Prefix)): "
            + "amounts and addresses may be shown wrongly"
    }

    /// The summary as labelled rows for an approval page (values are plain text, to be escaped
    /// by whoever renders them); `isWarning` marks what a person must not miss. Values never hold
    /// control, format or line-separator characters (only the call's own line breaks; DisplayText).
    package var rows: [(label: String, value: String, isWarning: Bool)] {
        let r = renderer
        var rows: [(label: String, value: String, isWarning: Bool)] = []
        rows.reserveCapacity(11 + warnings.count)
        // Chain name, symbol, extension names and error reasons come from the dapp: control, format
        // and line-separator characters are escaped (DisplayText) as each row is added; a decoded
        // call keeps its lines.
        func add(_ label: String, _ value: String, _ isWarning: Bool) {
            rows.append((label, DisplayText.visible(value), isWarning))
        }
        add("chain", "\(chainName ?? "unknown chain") (genesis \(Hex.encode(genesisHash)))", chainName == nil)
        var spec = "\(specVersion), transaction version \(transactionVersion)"
        switch metadataMatches {
        case true?: spec += " (metadata matches)"
        case false?: spec += " (metadata is for \(metadataSpecVersion ?? 0): MISMATCH)"
        case nil: spec += call == nil ? " (no metadata)" : ""
        }
        add("spec version", spec, metadataMatches == false)
        add("signer", signer, false)
        add("nonce", String(nonce), false)
        add("tip", r.balanceText(tip), false)
        let native = "native token" + (properties.token.map { " (\($0.symbol))" } ?? "")
        add("fee asset", feeAsset.map { r.inline($0) } ?? native, false)
        add("mortality", mortalityText, false)
        add("metadata hash", metadataHashStatus.text, metadataHashStatus.isWarning)
        if let call {
            rows.append(("call", DisplayText.visibleLines(r.text(call)), false))
        } else {
            add("call", callProblem ?? "not decoded", true)
        }
        add("call hash", Hex.encode(callHash), false)
        for w in warnings { add("warning", w, true) }
        return rows
    }

    /// The summary as lines of text (``rows``, labels aligned; a decoded call indented below its label).
    package var text: String {
        var lines: [String] = []
        for row in rows {
            let label = (row.label == "warning" ? "WARNING" : row.label) + ":"
            let padded = label.padding(toLength: 15, withPad: " ", startingAt: 0)
            if row.label == "call" && call != nil {
                lines.append(label)
                lines.append(
                    row.value.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(
                        separator: "\n"))
            } else {
                lines.append(padded + row.value)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The summary as JSON.
    package var json: JSONValue {
        let r = renderer
        var pairs: [(String, JSONValue)] = [
            ("chain", chainName.map { .string($0) } ?? .null),
            ("genesisHash", .string(Hex.encode(genesisHash))),
            ("specVersion", .integer(specVersion)),
            ("transactionVersion", .integer(transactionVersion)),
            ("metadataSpecVersion", metadataSpecVersion.map { .integer($0) } ?? .null),
            ("metadataMatches", metadataMatches.map { .bool($0) } ?? .null),
            ("signer", .string(signer)),
            ("nonce", .integer(nonce)),
            ("tip", r.json(.balance(tip))),
            ("feeAsset", feeAsset.map { r.json($0) } ?? .null),
        ]
        var mortality: [(String, JSONValue)] = [("immortal", .bool(era == .immortal))]
        if case .mortal(let period, let phase) = era {
            mortality += [("period", .integer(period)), ("phase", .integer(phase))]
            if let from = validFrom, let until = validUntil {
                mortality += [("validFrom", .integer(from)), ("validUntil", .integer(until))]
            }
        }
        pairs.append(("mortality", .object(JSONObject(mortality))))
        pairs.append(("metadataHash", metadataHash.map { .string(Hex.encode($0)) } ?? .null))
        pairs.append(("metadataHashCheck", .string(metadataHashStatus.name)))
        pairs.append(("call", call.map { r.json($0) } ?? .null))
        if let callProblem { pairs.append(("callProblem", .string(callProblem))) }
        pairs.append(("callHash", .string(Hex.encode(callHash))))
        pairs.append(("warnings", .array(warnings.map { .string($0) })))
        return .object(JSONObject(pairs))
    }
}
