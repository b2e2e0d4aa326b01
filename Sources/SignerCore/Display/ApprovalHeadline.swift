import Foundation
import Primitives

/// The first thing a person reads about a request: one sentence in plain words ("Connect
/// https://dapp.example", "Send 1 DOT from Alice to 14E5…KVf3", "Update Polkadot metadata to
/// 2000000", "Send 1 ICX from Ice to hx87a9…1c2d"), the addresses it names (``AddressMention``:
/// full address in the chain's own format, the person's name for it, identicon colours), and its
/// warnings as short sentences that name the problem.
///
/// A connection's sentence is built here; every other request's is its adapter's
/// (``AdapterHeadline``, built by the protocol from its typed request: when it was queued, or only
/// when it is shown for Gateway's PolkadotApproval; IconApproval, the Ethereum adapter), with the person's names for
/// its accounts filled in here when it is shown. An adapter request without one (Internet Computer)
/// reads the sentence ICPCodec's call renderer wrote (the `call` row). Text from a site or from
/// metadata passes through ``DisplayText/visible(_:)`` (control, format and line-separator
/// characters escaped, never interpreted) and the sentence is cut at ``maxCharacters``.
package struct ApprovalHeadline: Sendable, Equatable {
    /// The sentence.
    package var text: String
    /// The addresses the request names, in order (signer first).
    package var mentions: [AddressMention]
    /// What the person must not miss, one short sentence each.
    package var warnings: [String]

    /// Longest headline: beyond it the sentence is cut with "…" (Details has everything).
    package static let maxCharacters = 300

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
    package static func sentence(_ text: String) -> String {
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
            for mention in headline.mentions { _ = named(mention) }
            warnings += headline.warnings
            return headline.parts.map { part in
                switch part {
                case .text(let text): return text
                case .account(let address):
                    // The key and identicon of a mention of the same address.
                    let known = headline.mentions.first { $0.address == address }
                    return AddressMention(
                        role: "", address: address, name: name(address, key: known?.key), identicon: nil
                    ).text
                }
            }.joined()
        }

        /// The name the person gave the mention's account (kept under its key, else its address),
        /// else its short form; recorded as a mention.
        mutating func named(_ mention: AdapterHeadline.Mention) -> String {
            let m = AddressMention(
                role: mention.role, address: mention.address, name: name(mention.address, key: mention.key),
                identicon: mention.identicon)
            if !mentions.contains(where: { $0.address == m.address && $0.role == m.role }) { mentions.append(m) }
            return m.text
        }

        func name(_ address: String, key: String?) -> String? { names[(key ?? address).lowercased()] }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> Substring {
        hasSuffix(suffix) ? dropLast(suffix.count) : Substring(self)
    }
}
