import Gateway
import ScaleCodec
import SignerCore
import SigningKeys

/// What the approval shows for a transaction when no decoder for the call is available: chain,
/// versions, nonce, tip, lifetime, the raw call with a warning, and its hash (reference §7.1).
enum PayloadSummary {
    static func rows(payload: WireJSON, built: InterimSigningPayload) -> [SummaryRow] {
        var rows: [SummaryRow] = []
        if let genesis = payload["genesisHash"]?.stringValue { rows.append(SummaryRow("genesis", genesis)) }
        if let spec = try? InterimSigningPayload.u32(built.fields, "specVersion") {
            rows.append(SummaryRow("spec version", String(spec)))
        }
        if let nonce = try? InterimSigningPayload.number(built.fields, "nonce", maxBytes: 8) {
            rows.append(SummaryRow("nonce", String(nonce)))
        }
        if let tip = try? InterimSigningPayload.number(built.fields, "tip", maxBytes: 16), tip != 0 {
            rows.append(SummaryRow("tip", String(tip) + " (smallest units)"))
        }
        if let eraBytes = try? InterimSigningPayload.bytes(built.fields, "era"), let era = try? ExtrinsicEra(bytes: eraBytes) {
            if case .immortal = era {
                rows.append(SummaryRow("lifetime", "immortal"))
            } else if let block = try? InterimSigningPayload.number(built.fields, "blockNumber", maxBytes: 8),
                let current = UInt64(exactly: block)
            {
                let death = era.death(current: current).map(String.init) ?? "?"
                rows.append(SummaryRow("lifetime", "mortal, valid from \(era.birth(current: current)) to \(death)"))
            } else {
                rows.append(SummaryRow("lifetime", "mortal"))
            }
        }
        if let assetId = payload["assetId"]?.stringValue { rows.append(SummaryRow("fee asset", assetId)) }
        rows.append(
            SummaryRow(
                "call data", ScaleCodec.Hex.encode(built.call) + "\n(metadata for this chain is not loaded: check the raw call)",
                warning: true))
        rows.append(SummaryRow("call hash", ScaleCodec.Hex.encode(Blake2b.hash256(built.call))))
        if !built.unknownExtensions.isEmpty {
            rows.append(
                SummaryRow(
                    "warning", "unknown signed extensions treated as empty: " + built.unknownExtensions.joined(separator: ", "),
                    warning: true))
        }
        return rows
    }
}
