import Foundation
import IconCodec
import PolkadotCodec
import Primitives
import ScaleCodec

/// The first thing a person reads about a request: one sentence in plain words built from the
/// decoded request ("Send 1 DOT from Alice to 14E5…KVf3", "Batch of 3 calls: …", "Sign the message
/// "hello"", "Update Polkadot metadata to 2000000", "Send 1 ICX from Ice to hx87a9…1c2d"), the
/// addresses it names (``AddressMention``: full address in the chain's own format, the person's
/// name for it, identicon colours), and its warnings as short sentences that name the problem.
///
/// Everything comes from the typed request (the decoded call, the message bytes, the ICON
/// transaction), never from re-reading the summary rows, except for Internet Computer requests whose
/// sentence ICPCodec's call renderer already wrote (the `call` row). Amounts go through the chain's
/// ``TokenFormat`` (exact integer arithmetic). Text from a site or from metadata passes through
/// ``DisplayText/visible(_:)`` (control, format and line-separator characters escaped, never
/// interpreted) and long parts are cut.
package struct ApprovalHeadline: Sendable, Equatable {
    /// The sentence.
    package var text: String
    /// The addresses the request names, in order (signer first).
    package var mentions: [AddressMention]
    /// What the person must not miss, one short sentence each.
    package var warnings: [String]

    /// Longest headline: beyond it the sentence is cut with "…" (Details has everything).
    package static let maxCharacters = 300
    /// Calls of a batch named in its headline; the rest are counted.
    package static let batchCallsNamed = 3

    /// The headline of `subject`, asked by `source`, for a person whose accounts are `accounts`.
    /// The warning of a request made through the ICONex Connect URL form (a link): the site's
    /// identity is the referring page's claim.
    package static func linkWarning(_ source: String) -> String {
        "This request came from a link, not from the site's own script: \(source) is only what the "
            + "referring page claims (Referer) and Sigil cannot verify it. A link posted on a site you "
            + "trust shows that site here; approve only if you started this yourself."
    }

    package init(_ subject: ApprovalSubject, source: String, accounts: [SignerAccount]) {
        var names: [String: String] = [:]
        for account in accounts { if let name = account.name { names[account.key.lowercased()] = name } }
        var builder = Builder(names: names)
        switch subject {
        case .authorize(let request):
            let name = request.appName.text
            text = "Connect \(source)" + (name.isEmpty ? "" : " (\(name))")
            if request.fromLink { builder.warnings.append(Self.linkWarning(source)) }
            if request.appName.isSuspicious && !name.isEmpty {
                builder.warnings.append(
                    "The name this site gives itself looks suspicious: trust the address \(source), not the name.")
            }
        case .signExtrinsic(let request):
            text = builder.extrinsic(request)
        case .signBytes(let request):
            text = builder.message(request)
        case .provideMetadata(let proposal):
            let chain = DisplayText.visible(proposal.chain)
            text = "Update \(chain.isEmpty ? "chain" : chain) metadata to \(proposal.specVersion)"
            if let known = proposal.knownSpecVersion, known >= proposal.specVersion {
                builder.warnings.append(
                    "This is not newer than the metadata Sigil has (version \(known)): there is no reason to accept it."
                )
            }
        case .adapter(let request):
            if let headline = request.headline {
                text = builder.adapter(headline)
            } else {
                let call = request.sentence ?? request.summary.first { $0.label == "call" }?.value
                text = builder.shortenedIdentifiers(IconSummary.safe(call ?? String(request.title.trimmingSuffix("?"))))
                builder.warnings += request.summary.filter { $0.label == "warning" }.map { Self.sentence($0.value) }
            }
        }
        // The one gate for what a site supplied (DisplayText): escaped, then cut.
        text = DisplayText.clipped(DisplayText.visible(text), Self.maxCharacters)
        mentions = builder.mentions
        warnings = builder.warnings.map(DisplayText.visible)
    }

    /// `"the payload's …"` → `"The payload's ….";` one sentence for a warning row.
    static func sentence(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let first = trimmed.first else { return trimmed }
        let body = first.uppercased() + trimmed.dropFirst()
        return body.hasSuffix(".") || body.hasSuffix("!") || body.hasSuffix("?") ? body : body + "."
    }

    /// The JSON the approval page reads: `headline`, `mentions`, `warnings`.
    package var json: [String: JSONValue] {
        [
            "headline": .string(text), "mentions": .array(mentions.map(\.json)),
            "warnings": .array(warnings.map(JSONValue.string)),
        ]
    }

    /// Builds the sentence and collects the addresses and warnings on the way.
    private struct Builder {
        let names: [String: String]
        var mentions: [AddressMention] = []
        var warnings: [String] = []

        init(names: [String: String]) { self.names = names }

        mutating func mention(_ role: String, accountId: [UInt8], renderer: ValueRenderer) -> String {
            mention(role, accountId: accountId, address: renderer.accountFormatter(accountId))
        }

        /// `address` is how the account is written where the request names it.
        mutating func mention(_ role: String, accountId: [UInt8], address: String) -> String {
            let m = AddressMention(
                role: role, address: address, name: names[Hex.encode(accountId)],
                identicon: accountId.count == 32 ? PolkadotIdenticon.colours(accountId: accountId) : nil)
            if !mentions.contains(where: { $0.address == m.address && $0.role == m.role }) { mentions.append(m) }
            return m.text
        }

        // MARK: Polkadot transactions

        mutating func extrinsic(_ request: ExtrinsicSigningRequest) -> String {
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
            if s.metadataHashStatus.isWarning { warnings.append(sentenceOf(s.metadataHashStatus.text)) }
            for w in s.warnings where w != s.callProblem && !w.hasPrefix("metadata is for spec version") {
                warnings.append(ApprovalHeadline.sentence(DisplayText.visible(w)))
            }
            guard let call = s.call else {
                if s.callProblem?.hasPrefix("no metadata") ?? true {
                    warnings.append(
                        "Sigil has no metadata for \(chain), so it cannot show what this transaction does: "
                            + "approve only if you trust the site and know what you asked it to do.")
                    return "Sign a transaction on \(chain) that Sigil cannot read (no metadata)"
                }
                warnings.append(
                    "This transaction does not decode with Sigil's metadata for \(chain): what it does cannot be shown."
                )
                return "Sign a transaction on \(chain) that Sigil cannot read"
            }
            return describe(call, from: from, renderer: r, chain: chain, depth: 0)
        }

        private func sentenceOf(_ text: String) -> String { ApprovalHeadline.sentence(DisplayText.visible(text)) }

        mutating func describe(
            _ call: DecodedCall, from: String?, renderer r: ValueRenderer, chain: String, depth: Int
        ) -> String {
            let pallet = DisplayText.visible(call.pallet)
            let name = DisplayText.visible(call.name)
            func arg(_ n: String) -> ScaleValue? { call.args.first { $0.name == n }?.value }
            let fromText = from.map { " from \($0)" } ?? ""
            switch (call.pallet, call.name) {
            case ("Balances", "transfer"), ("Balances", "transfer_keep_alive"), ("Balances", "transfer_allow_death"):
                guard let dest = arg("dest"), let value = arg("value") else { break }
                return "Send \(amount(value, r))\(fromText) to \(party("to", dest, r))"
            case ("Balances", "transfer_all"):
                guard let dest = arg("dest") else { break }
                return "Send everything\(fromText) to \(party("to", dest, r))"
            case ("Staking", "bond"):
                guard let value = arg("value") else { break }
                return "Stake \(amount(value, r))"
            case ("Staking", "bond_extra"):
                guard let value = arg("max_additional") else { break }
                return "Stake \(amount(value, r)) more"
            case ("Staking", "unbond"):
                guard let value = arg("value") else { break }
                return "Unstake \(amount(value, r))"
            case ("Staking", "nominate"):
                guard case .sequence(let targets)? = arg("targets") else { break }
                return "Nominate \(targets.count) validator\(targets.count == 1 ? "" : "s")"
            case ("Staking", "chill"):
                return "Stop nominating"
            case ("System", "remark"), ("System", "remark_with_event"):
                guard case .bytes(let bytes)? = arg("remark") else { break }
                return "Write the remark \(clip(ValueRenderer.bytesText(bytes), 80)) on \(chain)"
            case ("Utility", "batch"), ("Utility", "batch_all"), ("Utility", "force_batch"):
                guard case .sequence(let items)? = arg("calls") else { break }
                let calls = items.compactMap { item -> DecodedCall? in
                    if case .call(let c) = item { return c } else { return nil }
                }
                guard depth < 2 else { return "a batch of \(calls.count) calls" }
                let named = calls.prefix(ApprovalHeadline.batchCallsNamed).map {
                    describe($0, from: nil, renderer: r, chain: chain, depth: depth + 1)
                }
                let more = calls.count > named.count ? "; and \(calls.count - named.count) more" : ""
                let kind = call.name == "batch_all" ? " (all or nothing)" : ""
                return "Batch of \(calls.count) call\(calls.count == 1 ? "" : "s")\(kind): "
                    + named.joined(separator: "; ") + more
            case ("Proxy", "proxy"):
                guard let real = arg("real"), case .call(let inner)? = arg("call"), depth < 2 else { break }
                return "As \(party("as", real, r)): "
                    + describe(inner, from: nil, renderer: r, chain: chain, depth: depth + 1)
            default: break
            }
            return "Call \(pallet).\(name) on \(chain)"
        }

        func amount(_ value: ScaleValue, _ r: ValueRenderer) -> String {
            switch value {
            case .balance(let n), .unsigned(let n): r.balanceText(n)
            default: clip(r.inline(value), 60)
            }
        }

        /// An account argument (`AccountId32`, or `MultiAddress::Id`): named, shortened, remembered.
        mutating func party(_ role: String, _ value: ScaleValue, _ r: ValueRenderer) -> String {
            if let id = Self.accountId(value) { return mention(role, accountId: id, renderer: r) }
            return clip(r.inline(value), 60)
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

        mutating func message(_ request: BytesSigningRequest) -> String {
            var data = request.message
            if MessageWrapping.isWrapped(data) {
                data = Array(data.dropFirst(MessageWrapping.prefix.count).dropLast(MessageWrapping.suffix.count))
            }
            if let id = Self.accountIdOfKey(request.accountKey) {
                _ = mention("account", accountId: id, address: DisplayText.visible(request.address))
            }
            if MessageWrapping.displayText(data) != nil, ValueRenderer.printableText(data) != nil {
                return "Sign the message \(clip(ValueRenderer.bytesText(data), 200))"
            }
            warnings.append(
                "This message is not text (shown in hex). Sigil signs it inside <Bytes>…</Bytes>, so the signature "
                    + "cannot pass for a transaction; still, sign only what you expect.")
            return "Sign the \(data.count)-byte message \(clip(Hex.encode(data), 80))"
        }

        static func accountIdOfKey(_ key: String) -> [UInt8]? {
            guard let bytes = try? Hex.decode(key, prefix: .required), bytes.count == 32 || bytes.count == 20 else {
                return nil
            }
            return bytes
        }

        // MARK: Internet Computer

        /// ICPCodec writes principals (`s3oqv-3j7id-…-wae`) and account ids (64 hex digits) in full:
        /// in the sentence they are shortened and named as mentions (full on focus, and in Details).
        mutating func shortenedIdentifiers(_ sentence: String) -> String {
            let words = sentence.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
                // Punctuation around an identifier stays: "(0x5FbD…0aa3)", "0x7099…79C8?".
                let edges: Set<Character> = ["(", ")", "?", ",", ".", ":", ";"]
                let core = word.drop(while: edges.contains).reversed().drop(while: edges.contains).reversed()
                let w = String(core)
                let principal =
                    w.count >= 27 && w.contains("-")
                    && w.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
                let accountId = w.count == 64 && w.unicodeScalars.allSatisfy(\.properties.isASCIIHexDigit)
                // An Ethereum address (EIP-55 or not): 0x + 40 hex digits.
                let ethereum =
                    w.count == 42 && w.hasPrefix("0x") && w.unicodeScalars.dropFirst(2).allSatisfy(\.properties.isASCIIHexDigit)
                guard principal || accountId || ethereum, let range = word.range(of: w) else { return String(word) }
                let role = principal ? "principal" : ethereum ? "address" : "account id"
                let m = AddressMention(role: role, address: w, name: nil, identicon: nil)
                if !mentions.contains(m) { mentions.append(m) }
                return word.replacingCharacters(in: range, with: m.short)
            }
            return words.joined(separator: " ")
        }

        // MARK: Adapters

        /// An adapter's own sentence (``AdapterHeadline``): its mentions in order, each account
        /// as the person's name for it or its short form.
        mutating func adapter(_ headline: AdapterHeadline) -> String {
            for mention in headline.mentions { _ = named(mention.role, mention.address) }
            warnings += headline.warnings
            return headline.parts.map { part in
                switch part {
                case .text(let text): text
                case .account(let address): named(nil, address)
                }
            }.joined()
        }

        /// The name the person gave `address`, else its short form; recorded as a mention with `role`.
        mutating func named(_ role: String?, _ address: String) -> String {
            let m = AddressMention(
                role: role ?? "", address: address, name: names[address.lowercased()], identicon: nil)
            if let role, !mentions.contains(where: { $0.address == m.address && $0.role == role }) {
                mentions.append(m)
            }
            return m.text
        }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> Substring {
        hasSuffix(suffix) ? dropLast(suffix.count) : Substring(self)
    }
}
