import Gateway
import Primitives
import SignerCore
import SigningKeys

/// A wallet protocol added as a test fixture (issue 22, "one registration line"): a JSON-RPC
/// adapter that connects a site to its one account and signs messages for it. Everything it needs
/// from Sigil is the seam (``ApprovalSeam``, ``GrantBook``, ``JSONRPCAdapter``): its route and
/// admission bucket are declared here (``FixtureProtocol/entry``), and outside this folder it takes
/// one line, the `adapters:` list of the gateway under test (`ProtocolSeamTests.gateway`). There it
/// runs the same hostile script as every real protocol (a row of `ProtocolSeamTests.Entry.all`): a
/// stranger's pool, the rate limit, the deny list, the journal budget, the one grant book.
///
/// Its key is a test double's own ed25519 pair; its account key is `fixture:` + the public key in hex.
struct FixtureProtocol: JSONRPCAdapter {
    static let entry = EntryPoint("POST", "/v1/fixture")
    static let isOwnKey: @Sendable (String) -> Bool = { $0.hasPrefix("fixture:") }

    let seam: any ApprovalSeam
    let grants: any GrantBook
    let key: KeyPair

    init(seam: any ApprovalSeam, grants: any GrantBook) throws {
        self.seam = seam
        self.grants = grants
        key = try KeyPair(uri: "//Fixture", scheme: .ed25519)
    }

    var entryPoint: EntryPoint { Self.entry }
    var defaultSession: String { "fixture-json-rpc" }
    var accountKey: String { "fixture:" + Hex.encode(key.publicKey, prefix: false) }

    func deniedReply(id: JSONValue?) -> JSONValue { Self.reply(id, error: 4100) }
    func asksAPerson(_ method: String) -> Bool { method == "fixture_connect" || method == "fixture_sign" }

    func handle(body: [UInt8], origin: String) async -> JSONValue {
        guard let request = try? JSONValue.parse(body), let method = request["method"]?.stringValue else {
            return Self.reply(nil, error: -32700)
        }
        let id = request["id"]
        switch method {
        case "fixture_status": return Self.reply(id, result: "ok")
        case "fixture_connect": return await connect(origin, id: id)
        case "fixture_sign":
            guard let text = request["params"]?.arrayValue?.first?.stringValue else {
                return Self.reply(id, error: -32602)
            }
            return await sign(text, origin: origin, id: id)
        default: return Self.reply(id, error: -32601)
        }
    }

    /// The granted account, asking the person first when the site has none of this protocol.
    func connect(_ origin: String, id: JSONValue?) async -> JSONValue {
        if let keys = await grants.grantedAccounts(origin)?.filter(Self.isOwnKey), !keys.isEmpty {
            return Self.reply(id, result: .array(keys.map(JSONValue.string)))
        }
        let question = "Connect \(origin) to the fixture account?"
        let approval = AdapterApproval(
            method: "fixture_connect", title: question, summary: [SummaryRow("site", origin)], wallet: "fixture",
            sentence: question, account: accountKey)
        guard await seam.decide(origin: origin, approval) == true else { return Self.reply(id, error: 4001) }
        do {
            try await grants.setGrantedAccounts(origin, appName: "", accounts: [accountKey], ownKey: Self.isOwnKey)
        } catch {
            return Self.reply(id, error: -32603)
        }
        return Self.reply(id, result: [.string(accountKey)])
    }

    /// Signs `text` (UTF-8) once the person approved exactly it.
    func sign(_ text: String, origin: String, id: JSONValue?) async -> JSONValue {
        guard await grants.grantedAccounts(origin)?.contains(accountKey) == true else {
            return Self.reply(id, error: 4100)
        }
        let message = Array(text.utf8)
        let approval = AdapterApproval(
            method: "fixture_sign", title: "Sign a message for \(origin)?", summary: [SummaryRow("message", text)],
            requestId: message, wallet: "fixture", account: accountKey)
        let key = self.key
        do {
            let signature: [UInt8]? = try await seam.decideAndSign(origin: origin, approval) {
                let signature = try key.sign(message)
                return (signature, signature)
            }
            guard let signature else { return Self.reply(id, error: 4001) }
            return Self.reply(id, result: .string(Hex.encode(signature)))
        } catch {
            return Self.reply(id, error: -32603)
        }
    }

    static func reply(_ id: JSONValue?, result: JSONValue) -> JSONValue {
        ["jsonrpc": "2.0", "id": id ?? .null, "result": result]
    }

    static func reply(_ id: JSONValue?, error code: Int) -> JSONValue {
        ["jsonrpc": "2.0", "id": id ?? .null, "error": ["code": .integer(code), "message": "fixture error"]]
    }
}
