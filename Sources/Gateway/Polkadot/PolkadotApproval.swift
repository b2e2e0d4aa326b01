import Journal
import PolkadotCodec
import Primitives
import ScaleCodec
import SignerCore

/// polkadot-js's requests, protocol-neutral (``AdapterApproval``), built when queued from the
/// prepared request the sign step signs (the headline from the same value, when it is shown): the title, the rows the signer wrote, the bytes
/// the signature covers (the signing payload, already hashed when over 256 bytes, or the wrapped
/// message), the journal's method (`pub(extrinsic.sign)`, `pub(bytes.sign)`), the account (its
/// generic SS58 address for the journal, its `0x…` account id for the grant book) and the headline:
/// "Send 1 DOT from Alice to 14E5…KVf3", "Batch of 3 calls: …", "Sign the message "hello"", with
/// every address in the chain's own format and its identicon.
///
/// Everything comes from the typed request (the decoded call, the message bytes), never from
/// re-reading the rows. Amounts go through the chain's ``TokenFormat`` (exact integer arithmetic);
/// text from a site or from metadata passes ``DisplayText/visible(_:)`` and long parts are cut.
package enum PolkadotApproval {
    /// The journal's method of a transaction.
    static let extrinsicMethod = "pub(extrinsic.sign)"
    /// The journal's method of a message.
    static let bytesMethod = "pub(bytes.sign)"
    /// The journal's method of a metadata update.
    static let metadataMethod = "pub(metadata.provide)"

    /// A transaction, for `account` (the signer's listing of the request's account).
    /// The headline is built when a person is shown the request (``AdapterApproval/headline``):
    /// describing the call costs about as much as preparing it, and automatic mode never shows it.
    package static func of(_ request: ExtrinsicSigningRequest, account: SignerAccount, source: String) -> AdapterApproval {
        AdapterApproval(
            method: extrinsicMethod, title: "Sign a transaction for \(source)?", summary: request.summary,
            requestId: request.prepared.signing.signedBytes, wallet: JournalRecords.polkadot,
            account: account.address, accountKey: request.accountKey, kind: "extrinsic",
            buildHeadline: {
                var builder = Builder()
                let parts = builder.extrinsic(request)
                return AdapterHeadline(mentions: builder.mentions, parts: parts, warnings: builder.warnings)
            })
    }

    /// A message, for `account`.
    package static func of(_ request: BytesSigningRequest, account: SignerAccount, source: String) -> AdapterApproval {
        AdapterApproval(
            method: bytesMethod, title: "Sign a message for \(source)?", summary: request.summary,
            requestId: request.message, wallet: JournalRecords.polkadot, account: account.address,
            accountKey: request.accountKey, kind: "bytes",
            buildHeadline: {
                var builder = Builder()
                let parts = builder.message(request)
                return AdapterHeadline(mentions: builder.mentions, parts: parts, warnings: builder.warnings)
            })
    }

    /// A metadata update: signs nothing; the journal records the digest of the definition stored.
    package static func of(_ proposal: MetadataProposal, source: String) -> AdapterApproval {
        let chain = DisplayText.visible(proposal.chain)
        var warnings: [String] = []
        if let known = proposal.knownSpecVersion, known >= proposal.specVersion {
            warnings.append(
                "This is not newer than the metadata Sigil has (version \(known)): there is no reason to accept it.")
        }
        return AdapterApproval(
            method: metadataMethod,
            title: "Update \(proposal.chain.isEmpty ? "chain" : proposal.chain) metadata from \(source)?",
            summary: proposal.summary, wallet: JournalRecords.polkadot, kind: "metadata",
            headline: AdapterHeadline(
                mentions: [],
                parts: [.text("Update \(chain.isEmpty ? "chain" : chain) metadata to \(proposal.specVersion)")],
                warnings: warnings),
            storedDigest: JournalCodec.hash(proposal.definitionJSON))
    }

    /// Calls of a batch named in its headline; the rest are counted.
    static let batchCallsNamed = 3

    typealias Parts = [AdapterHeadline.Part]

    /// Builds the sentence as parts and collects the addresses and warnings on the way.
    struct Builder {
        var mentions: [AdapterHeadline.Mention] = []
        var warnings: [String] = []

        /// An account the request names, in the chain's format (`address`): its key is the account
        /// id the person's names are kept under, with its identicon when it is 32 bytes.
        mutating func mention(_ role: String, accountId: [UInt8], address: String) -> Parts {
            let m = AdapterHeadline.Mention(
                role, DisplayText.visible(address), key: Hex.encode(accountId),
                identicon: accountId.count == 32 ? PolkadotIdenticon.colours(accountId: accountId) : nil)
            if !mentions.contains(where: { $0.address == m.address && $0.role == m.role }) { mentions.append(m) }
            return [.account(m.address)]
        }

        mutating func mention(_ role: String, accountId: [UInt8], renderer: ValueRenderer) -> Parts {
            mention(role, accountId: accountId, address: renderer.accountFormatter(accountId))
        }

        // MARK: Transactions

        mutating func extrinsic(_ request: ExtrinsicSigningRequest) -> Parts {
            let s = request.prepared.summary
            let r = s.renderer
            let chain = s.chainName.map(ValueRenderer.safeName) ?? "an unknown chain"
            let from = mention("from", accountId: request.prepared.payload.accountId, renderer: r)
            if s.chainName == nil {
                warnings.append(
                    "Sigil does not know this chain (genesis \(AddressText.short(Hex.encode(s.genesisHash)))): "
                        + "amounts and addresses may be shown wrongly.")
            }
            if let m = s.metadataSpecVersion, m != s.specVersion {
                warnings.append(
                    "Sigil's metadata for \(chain) is for runtime version \(m), this transaction for \(s.specVersion): "
                        + "what it does may be described wrongly.")
            }
            if s.metadataHashStatus.isWarning { warnings.append(Self.sentence(s.metadataHashStatus.text)) }
            for w in s.warnings where w != s.callProblem && !w.hasPrefix("metadata is for spec version") {
                warnings.append(Self.sentence(w))
            }
            guard let call = s.call else {
                if s.callProblem?.hasPrefix("no metadata") ?? true {
                    warnings.append(
                        "Sigil has no metadata for \(chain), so it cannot show what this transaction does: "
                            + "approve only if you trust the site and know what you asked it to do.")
                    return [.text("Sign a transaction on \(chain) that Sigil cannot read (no metadata)")]
                }
                warnings.append(
                    "This transaction does not decode with Sigil's metadata for \(chain): what it does cannot be shown."
                )
                return [.text("Sign a transaction on \(chain) that Sigil cannot read")]
            }
            return describe(call, from: from, renderer: r, chain: chain, depth: 0)
        }

        static func sentence(_ text: String) -> String { ApprovalHeadline.sentence(DisplayText.visible(text)) }

        mutating func describe(
            _ call: DecodedCall, from: Parts?, renderer r: ValueRenderer, chain: String, depth: Int
        ) -> Parts {
            let pallet = DisplayText.visible(call.pallet)
            let name = DisplayText.visible(call.name)
            func arg(_ n: String) -> ScaleValue? { call.args.first { $0.name == n }?.value }
            let fromParts: Parts = from.map { [.text(" from ")] + $0 } ?? []
            switch (call.pallet, call.name) {
            case ("Balances", "transfer"), ("Balances", "transfer_keep_alive"), ("Balances", "transfer_allow_death"):
                guard let dest = arg("dest"), let value = arg("value") else { break }
                return [.text("Send \(amount(value, r))")] + fromParts + [.text(" to ")] + party("to", dest, r)
            case ("Balances", "transfer_all"):
                guard let dest = arg("dest") else { break }
                return [.text("Send everything")] + fromParts + [.text(" to ")] + party("to", dest, r)
            case ("Staking", "bond"):
                guard let value = arg("value") else { break }
                return [.text("Stake \(amount(value, r))")]
            case ("Staking", "bond_extra"):
                guard let value = arg("max_additional") else { break }
                return [.text("Stake \(amount(value, r)) more")]
            case ("Staking", "unbond"):
                guard let value = arg("value") else { break }
                return [.text("Unstake \(amount(value, r))")]
            case ("Staking", "nominate"):
                guard case .sequence(let targets)? = arg("targets") else { break }
                return [.text("Nominate \(targets.count) validator\(targets.count == 1 ? "" : "s")")]
            case ("Staking", "chill"):
                return [.text("Stop nominating")]
            case ("System", "remark"), ("System", "remark_with_event"):
                guard case .bytes(let bytes)? = arg("remark") else { break }
                return [.text("Write the remark \(clip(ValueRenderer.bytesText(bytes), 80)) on \(chain)")]
            case ("Utility", "batch"), ("Utility", "batch_all"), ("Utility", "force_batch"):
                guard case .sequence(let items)? = arg("calls") else { break }
                let calls = items.compactMap { item -> DecodedCall? in
                    if case .call(let c) = item { return c } else { return nil }
                }
                guard depth < 2 else { return [.text("a batch of \(calls.count) calls")] }
                var parts: Parts = [
                    .text(
                        "Batch of \(calls.count) call\(calls.count == 1 ? "" : "s")"
                            + "\(call.name == "batch_all" ? " (all or nothing)" : ""): ")
                ]
                let named = calls.prefix(PolkadotApproval.batchCallsNamed)
                for (i, inner) in named.enumerated() {
                    if i > 0 { parts.append(.text("; ")) }
                    parts += describe(inner, from: nil, renderer: r, chain: chain, depth: depth + 1)
                }
                if calls.count > named.count { parts.append(.text("; and \(calls.count - named.count) more")) }
                return parts
            case ("Proxy", "proxy"):
                guard let real = arg("real"), case .call(let inner)? = arg("call"), depth < 2 else { break }
                return [.text("As ")] + party("as", real, r) + [.text(": ")]
                    + describe(inner, from: nil, renderer: r, chain: chain, depth: depth + 1)
            default: break
            }
            return [.text("Call \(pallet).\(name) on \(chain)")]
        }

        func amount(_ value: ScaleValue, _ r: ValueRenderer) -> String {
            switch value {
            case .balance(let n), .unsigned(let n): r.balanceText(n)
            default: clip(r.inline(value), 60)
            }
        }

        /// An account argument (`AccountId32`, or `MultiAddress::Id`): named, shortened, remembered.
        mutating func party(_ role: String, _ value: ScaleValue, _ r: ValueRenderer) -> Parts {
            if let id = Self.accountId(value) { return mention(role, accountId: id, renderer: r) }
            return [.text(clip(r.inline(value), 60))]
        }

        static func accountId(_ value: ScaleValue) -> [UInt8]? {
            switch value {
            case .account(let bytes): return bytes
            case .variant(let v) where v.name == "Id" && v.fields.count == 1: return accountId(v.fields[0].value)
            case .composite(let fields) where fields.count == 1: return accountId(fields[0].value)
            default: return nil
            }
        }

        func clip(_ text: String, _ limit: Int) -> String {
            text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
        }

        // MARK: Messages

        mutating func message(_ request: BytesSigningRequest) -> Parts {
            var data = request.message
            if MessageWrapping.isWrapped(data) {
                data = Array(data.dropFirst(MessageWrapping.prefix.count).dropLast(MessageWrapping.suffix.count))
            }
            if let id = Self.accountIdOfKey(request.accountKey) {
                _ = mention("account", accountId: id, address: request.address)
            }
            if MessageWrapping.displayText(data) != nil, ValueRenderer.printableText(data) != nil {
                return [.text("Sign the message \(clip(ValueRenderer.bytesText(data), 200))")]
            }
            warnings.append(
                "This message is not text (shown in hex). Sigil signs it inside <Bytes>…</Bytes>, so the signature "
                    + "cannot pass for a transaction; still, sign only what you expect.")
            return [.text("Sign the \(data.count)-byte message \(clip(Hex.encode(data), 80))")]
        }

        static func accountIdOfKey(_ key: String) -> [UInt8]? {
            guard let bytes = try? Hex.decode(key, prefix: .required), bytes.count == 32 || bytes.count == 20 else {
                return nil
            }
            return bytes
        }
    }
}
