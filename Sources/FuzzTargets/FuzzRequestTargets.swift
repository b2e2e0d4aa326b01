import Foundation
import Gateway
import IconCodec
import ICPCodec
import Keystore
import Primitives
import SignerCore
import SigningKeys
import StateStore

/// The request decoders as a dapp reaches them (issue 24): a JSON-RPC envelope read strictly, its
/// typed params, the request prepared for a person (ICP call: Base64 → Candid → rendered call;
/// ICON: transaction → summary), and what the approval page and terminal would be sent (rows,
/// headline, the capped `/api/state` entry). Properties: nothing a site sent reaches the display with a
/// control, format or line-separator character; the state entry of one request stays within its
/// caps. Memory is what `-rss_limit_mb` in scripts/fuzz watches (a Candid `vec null` of 3 MB used to
/// take ~480 MB).
extension FuzzTarget {
    /// A fixed ICP identity (ed25519, secret 0x01…01): the fuzzer need not guess a principal.
    static let icpKey = try? IcpKeyPair(secretKey: SecretBytes([UInt8](repeating: 1, count: 32)), algorithm: .ed25519)
    static let icpSigner = IcpCallSigner(keys: icpKey.map { [$0] } ?? [])
    static let icpSender = icpKey.map { Principal(selfAuthenticating: $0.derPublicKey).text } ?? ""
    /// The ICP ledger's principal, so that the renderer's known methods are reached.
    static let ledgerText = "ryjl3-tyaaa-aaaaa-aaaba-cai"
    static let now: UInt64 = 1_700_000_000_000_000_000

    /// `icrc`: one JSON-RPC request body as `POST /icrc` receives it.
    static func icrcRequest(_ bytes: [UInt8]) throws(FuzzViolation) {
        guard let json = try? JSONValue.parse(bytes), let request = try? IcrcRequest(json: json) else { return }
        let params = request.params == .null ? JSONValue.object([:]) : request.params
        _ = try? JSONValueDecoder().decode(Icrc.RequestPermissions.Params.self, from: params)
        _ = try? JSONValueDecoder().decode(Icrc.SignEnvelopes.Params.self, from: params)
        guard var call = try? JSONValueDecoder().decode(IcpCallParams.self, from: params) else { return }
        // The fuzzer cannot guess a principal's checksum: the sender is always ours.
        call.sender = icpSender
        try icpCall(call, target: .icrc)
    }

    /// `icrc49-candid`: the input is the Candid `arg` of an `icrc49_call_canister` request to the ICP
    /// ledger; it travels the whole way a site's would (Base64 in a JSON-RPC body).
    static func icrc49Candid(_ bytes: [UInt8]) throws(FuzzViolation) {
        let methods = ["icrc1_transfer", "icrc2_approve", "icrc2_transfer_from", "transfer", "other_method"]
        let method = methods[bytes.count % methods.count]
        let body: JSONValue = [
            "jsonrpc": "2.0", "id": 1, "method": "icrc49_call_canister",
            "params": [
                "canisterId": .string(ledgerText), "sender": .string(icpSender), "method": .string(method),
                "arg": .string(Data(bytes).base64EncodedString()),
            ],
        ]
        guard let reparsed = try? JSONValue.parse(body.encoded()), let request = try? IcrcRequest(json: reparsed),
            let call = try? JSONValueDecoder().decode(IcpCallParams.self, from: request.params)
        else { throw FuzzViolation(.icrc49Candid, "a well-formed icrc49_call_canister body is refused") }
        try icpCall(call, target: .icrc49Candid)
    }

    private static func icpCall(_ call: IcpCallParams, target: FuzzTarget) throws(FuzzViolation) {
        guard
            let prepared = try? icpSigner.prepare(
                call, origin: "https://d.example", now: now, blindSigningAllowed: true)
        else { return }
        let rows = prepared.rows(now: now)
        let subject = ApprovalSubject.adapter(
            AdapterApproval(method: "icrc49_call_canister", title: "Call \(call.method)?", summary: rows))
        try checkDisplay(subject, rows: rows, target: target)
    }

    /// `icon-request`: an ICON Connect v1 object (`{id, method, params}`) or a relay JSON-RPC
    /// (`{jsonrpc, method, params}`), its transaction prepared for a person.
    static func iconRequest(_ bytes: [UInt8]) throws(FuzzViolation) {
        guard let service = iconService, let account = iconAccount,
            case .object(let object)? = try? JSONValue.parse(bytes), case .object(var tx)? = object["params"]
        else { return }
        tx["from"] = .string(account.address)
        for action in [IconSigningRequest.Action.signOnly, .send] {
            guard
                var request = try? service.prepareIcon(
                    transaction: .object(tx), action: action, account: account, now: 0x5d56f3231f818)
            else { return }
            request.fromLink = action == .send
            try checkDisplay(
                .adapter(IconApproval.of(request, source: "https://d.example")), rows: request.summary, target: .iconRequest)
        }
    }

    static let iconPair = try? IconKeyPair(secretKey: SecretBytes([UInt8](repeating: 2, count: 32)))
    static let iconService: SigningService? = {
        guard let pair = iconPair, let store = try? SQLiteStateStore.inMemory() else { return nil }
        let info = IconAccountInfo(address: pair.address, name: "K1", whenCreated: nil, isTesting: false, fileName: "")
        return SigningService(
            accounts: [], store: store, icon: IconKeyring(accounts: [info], pairs: [pair.address: pair]))
    }()
    static let iconAccount = iconService?.accounts().first

    /// What a person is shown: no invisible character from the site, and the page's entry capped.
    static func checkDisplay(_ subject: ApprovalSubject, rows: [SummaryRow], target: FuzzTarget)
        throws(FuzzViolation)
    {
        let headline = ApprovalHeadline(subject, source: "https://d.example", accounts: [])
        let texts =
            [headline.text] + headline.warnings + headline.mentions.flatMap { [$0.address, $0.text] }
            + rows.flatMap { [$0.label, $0.value] }
        for text in texts where text.unicodeScalars.contains(where: DisplayText.isInvisible) {
            throw FuzzViolation(
                target, "an invisible character reaches the display: \(text.debugDescription.prefix(200))")
        }
        guard headline.text.count <= ApprovalHeadline.maxCharacters else {
            throw FuzzViolation(target, "headline longer than \(ApprovalHeadline.maxCharacters) characters")
        }
        var budget = ApprovalDetails.maxStateCharacters
        let shown = ApprovalDetails.shown(rows, budget: &budget)
        guard shown.rows.count <= ApprovalDetails.maxRows + ApprovalDetails.maxWarningRows,
            shown.rows.count + shown.hiddenRows == rows.count
        else { throw FuzzViolation(target, "the state entry is not capped: \(shown.rows.count) rows") }
        _ = JSONValue.array(shown.json).encoded()
        _ = TerminalPrompt.indented(rows.first?.value ?? "")
    }
}
