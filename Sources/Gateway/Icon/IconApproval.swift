import IconCodec
import Primitives
import SignerCore

/// ICON's approval, protocol-neutral (``AdapterApproval``): the title, the rows SignerCore's
/// `IconSummary` wrote, the 32 bytes the signature covers (the transaction's SHA3-256, or the site's
/// hash when blind signing), the journal's method (`icon(sign)`, `icon(send)`, `icon(signing)`) and
/// the headline: "Send 1 ICX from Ice to hx87a9…1c2d", ICX moved along with a contract call in the
/// sentence and warned about, a bare hash and a request from the link form said loudly.
package enum IconApproval {
    package static func of(_ request: IconSigningRequest, source: String) -> AdapterApproval {
        AdapterApproval(
            method: method(request.action), title: IconGateway.title(request, source: source),
            summary: request.summary, requestId: request.hash, wallet: "icon", account: request.accountKey,
            kind: request.action == .blindHash ? "icon-hash" : "icon", headline: headline(request, source: source))
    }

    /// The wire method the journal records.
    static func method(_ action: IconSigningRequest.Action) -> String {
        switch action {
        case .signOnly: "icon(sign)"
        case .send: "icon(send)"
        case .blindHash: "icon(signing)"
        }
    }

    /// The sentence, its accounts and its warnings.
    static func headline(_ request: IconSigningRequest, source: String) -> AdapterHeadline {
        var mentions = [AdapterHeadline.Mention("from", IconSummary.safe(request.accountKey))]
        var warnings: [String] = []
        func sentence(_ parts: AdapterHeadline.Part...) -> AdapterHeadline {
            AdapterHeadline(mentions: mentions, parts: parts, warnings: warnings)
        }
        let from = AdapterHeadline.Part.account(IconSummary.safe(request.accountKey))
        if request.fromLink { warnings.append(ApprovalHeadline.linkWarning(source)) }
        guard let tx = request.transaction, request.action != .blindHash else {
            warnings.append(
                "Blind signing: \(source) asks you to sign a bare hash. Sigil cannot tell what it authorises; "
                    + "it could move all your funds.")
            return sentence(.text("Sign a bare hash for \(source) (blind signing)"))
        }
        mentions.append(.init("to", IconSummary.safe(tx.to)))
        let to = AdapterHeadline.Part.account(IconSummary.safe(tx.to))
        let value = tx.value.map(IconSummary.icx) ?? "0"
        let sendsIt = request.action == .send ? "" : " (the site sends it)"
        // ICX moved along with a contract call belongs in the sentence, with a warning (issue 24
        // item 6): a token transfer or a `vote` call can also carry 5000 ICX.
        let carriesICX = IconSummary.movesICX(tx)
        switch tx.dataType {
        case .call?:
            let method = IconSummary.safe(tx.data?["method"]?.stringValue ?? "")
            if carriesICX {
                warnings.append(
                    "This contract call also sends \(value) ICX from your account to contract "
                        + "\(AddressText.short(tx.to)): approve only if you mean to pay the contract.")
            }
            let alsoICX = carriesICX ? ", and \(value) ICX to the contract" : ""
            if method == "transfer", let params = tx.data?["params"]?.objectValue,
                let amount = params["_value"]?.stringValue, IconSummary.isCanonicalHex(amount),
                let receiver = params["_to"]?.stringValue
            {
                mentions.append(.init("to", IconSummary.safe(receiver)))
                return sentence(
                    .text(
                        "Send \(IconSummary.decimal(amount)) (smallest units) of token \(AddressText.short(tx.to)) from "
                    ),
                    from, .text(" to "), .account(IconSummary.safe(receiver)), .text("\(alsoICX)\(sendsIt)"))
            }
            let sending = carriesICX ? ", sending \(value) ICX with it" : ""
            return sentence(
                .text("Call \(clip(method, 60)) on contract "), to, .text(" from "), from,
                .text("\(sending)\(sendsIt)"))
        case .deposit?:
            if carriesICX {
                return sentence(.text("Deposit \(value) ICX to contract "), to, .text(" from "), from, .text(sendsIt))
            }
            return sentence(.text("Deposit to contract "), to, .text(" from "), from, .text(sendsIt))
        default:
            return sentence(.text("Send \(value) ICX from "), from, .text(" to "), to, .text(sendsIt))
        }
    }

    static func clip(_ text: String, _ limit: Int) -> String {
        text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }
}
