import Foundation
import Gateway
import IconCodec
import Journal
import Keystore
import Logging
import Primitives
import SignerCore
import SigningKeys
import StateStore
import Synchronization
import Testing

/// A test double of an ICON node (Swift side; scripts/test.d/15 has the iconsdk one): it checks
/// every submitted transaction as a node does (re-validated and re-hashed by IconCodec, signature
/// recovered to `from`) before answering its hash; it can refuse, or answer another hash.
final class IconTestDoubleNode: IconNode {
    enum Behaviour: Sendable { case accept, refuse, wrongHash }
    let behaviour: Behaviour
    private let sent = Mutex<[JSONValue]>([])
    var accepted: [JSONValue] { sent.withLock { $0 } }

    init(_ behaviour: Behaviour = .accept) { self.behaviour = behaviour }

    func sendTransaction(_ params: JSONValue) async throws -> String {
        guard case .object(var object) = params, let signature = object["signature"]?.stringValue else {
            throw IconConnectError.network("node refused: no signature")
        }
        object["signature"] = nil
        let tx = try IconTransaction(json: .object(object))
        let recovered = try IconKeyPair.recoverAddress(
            signature: try IconKeyPair.decodeSignature(base64: signature), hash: tx.hash)
        guard recovered == tx.from else { throw IconConnectError.network("node refused: bad signature") }
        switch behaviour {
        case .refuse: throw IconConnectError.network("node refused the transaction: -32600 insufficient balance")
        case .wrongHash:
            sent.withLock { $0.append(params) }
            return "0x" + String(repeating: "ab", count: 32)
        case .accept:
            sent.withLock { $0.append(params) }
            return tx.transactionHash
        }
    }
}

@Suite struct IconGatewayTests {
    static let key1 = "38f792b95a5202ab431bfc799f7e1e5c74ec0b9ede5c6142ee7364f2c84d72f6"
    static let me = "hx902ecb51c109183ace539f247b4ea1347fbf23b5"
    static let other = "hx87a90bfe8ed49e1a25184ce77fa0d9c4b0484d6a"
    static let now: Int64 = 0x5d56f3231f818
    /// V-ICON-7 A as Connect `sign` params.
    static let vIcon7A: JSONValue = [
        "version": "0x3", "from": .string(me), "to": .string(other), "value": "0xde0b6b3a7640000",
        "stepLimit": "0x186a0", "timestamp": "0x5d56f3231f818", "nid": "0x1", "nonce": "0x1",
    ]

    func makeService(
        mode: GatewayOptions.ApprovalMode = .automatic, node: (any IconNode)? = IconTestDoubleNode(),
        blind: Set<String> = [], withIcon: Bool = true, journal: StateStoreJournal? = nil
    ) async throws -> GatewayService {
        let pair = try IconKeyPair(secretKey: SecretBytes(try Hex.decode(Self.key1, prefix: .forbidden)))
        let info = IconAccountInfo(address: pair.address, name: "K1", whenCreated: nil, isTesting: false, fileName: "")
        let signer = SigningService(
            accounts: [(TestAccounts.alice, try KeyPair(uri: "//Alice", scheme: .sr25519))],
            store: try SQLiteStateStore.inMemory(),
            icon: withIcon ? IconKeyring(accounts: [info], pairs: [pair.address: pair]) : .empty)
        var options = GatewayOptions(approvalMode: mode)
        options.iconNode = node
        options.iconBlindSigningOrigins = blind
        options.iconWallClock = { Self.now }
        return try await GatewayService(
            options: options, signer: signer, metadata: InMemoryMetadataRegistry(),
            persistence: InMemoryAuthorizations([]), clock: TestClock(), serverID: "srv1",
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }), journal: journal)
    }

    /// One Connect request; the answer object (after the person when `approve` is given).
    func connect(
        _ service: GatewayService, _ body: JSONValue, approve: Bool? = nil, id: String = "c1"
    ) async throws -> JSONValue {
        if let reply = try await service.send("icon(connect)", body, id: id) {
            guard case .response(let value) = reply.body else { throw SignerError(.invalidInput, "\(reply)") }
            return value
        }
        let approval = try #require(await service.pendingApprovals.last)
        if approve == true {
            try await service.approve(approval.id, accounts: [Self.me])
        } else {
            try await service.reject(approval.id)
        }
        let reply = try #require(try await service.logged().last { $0.id == id })
        guard case .response(let value) = reply.body else { throw SignerError(.invalidInput, "\(reply)") }
        return value
    }

    func code(_ answer: JSONValue) -> Int? { answer["code"]?.integer(as: Int.self) }

    @Test func bindThenSignGivesVIcon7ByteForByte() async throws {
        let service = try await makeService()
        let bound = try await connect(service, ["id": 1, "method": "bind"])
        #expect(bound == ["id": 1, "code": 1, "result": .string(Self.me)])
        let signed = try await connect(service, ["id": 2, "method": "sign", "params": Self.vIcon7A])
        #expect(
            signed == [
                "id": 2, "code": 1,
                "result": "V76QVTFQX2XMr86fcQrCeKRAk9YBOiJqKP6DCLOlYOY0AEnHjZYgzW++GcAGnx5I8LEuY2We7FZRmuuGFd78gAE=",
            ])
        #expect(service.metrics.signatures(scheme: "icon") == 1)
        // ICON accounts are never shown to polkadot-js dapps.
        let listed = try #require(try await service.send("pub(accounts.list)", ["anyType": true], id: "l1"))
        guard case .response(.array(let accounts)) = listed.body else { Issue.record("\(listed)"); return }
        #expect(accounts.allSatisfy { $0["type"]?.stringValue != "icon" })
    }

    /// The journal records an ICON signature as every protocol's (the seam's one path): protocol
    /// `icon`, the wire method, the `hx` account, the digest of the 32 bytes signed, the signature.
    @Test func aSignatureIsJournaledAsEveryProtocolsIs() async throws {
        let journal = try JournalPathTests.journal()
        let service = try await makeService(journal: journal)
        _ = try await connect(service, ["id": 1, "method": "bind"])
        let signed = try await connect(service, ["id": 2, "method": "sign", "params": Self.vIcon7A])
        let signature = try IconKeyPair.decodeSignature(base64: try #require(signed["result"]?.stringValue))
        let entry = try #require(try JournalPathTests.entries(journal).last?.content)
        #expect(entry.protocolName == "icon" && entry.method == "icon(sign)" && entry.account == Self.me)
        #expect(entry.decision == "auto-approved" && entry.result == signature)
        #expect(entry.subjectDigest == JournalCodec.hash(try IconTransaction(json: Self.vIcon7A).hash))
        #expect(try await journal.verify().isValid)
    }

    @Test func aPersonDecides() async throws {
        let service = try await makeService(mode: .person)
        #expect(try await connect(service, ["id": 1, "method": "bind"], approve: false)["code"] == -1000)
        #expect(
            try await connect(service, ["id": 2, "method": "bind"], approve: true, id: "c2")["result"]
                == .string(Self.me))
        let rejected = try await connect(
            service, ["id": 3, "method": "sign", "params": Self.vIcon7A], approve: false, id: "c3")
        #expect(rejected == ["id": 3, "code": -1000, "result": "Operation canceled by user."])
        let immediate = try await service.send(
            "icon(connect)", ["id": 4, "method": "sign", "params": Self.vIcon7A], id: "c4")
        #expect(immediate == nil)
        let approval = try #require(await service.pendingApprovals.first)
        guard case .adapter(let request) = approval.subject, request.wallet == "icon" else {
            Issue.record("not an ICON approval")
            return
        }
        #expect(request.summary.contains { $0.label == "value" && $0.value.hasPrefix("1 ICX") })
        try await service.approve(approval.id)
        #expect(
            try await service.logged().last?.body
                == .response([
                    "id": 4, "code": 1,
                    "result":
                        "V76QVTFQX2XMr86fcQrCeKRAk9YBOiJqKP6DCLOlYOY0AEnHjZYgzW++GcAGnx5I8LEuY2We7FZRmuuGFd78gAE=",
                ]))
    }

    @Test func sendingReportsOnlyAHashTheNodeAccepted() async throws {
        let node = IconTestDoubleNode()
        let service = try await makeService(node: node)
        _ = try await connect(service, ["id": 1, "method": "bind"])
        let sent = try await connect(
            service,
            [
                "id": 2, "method": "sendICX",
                "params": ["from": .string(Self.me), "to": .string(Self.other), "value": "0x1"],
            ])
        let params = try #require(node.accepted.last)
        let tx = try IconTransaction(json: params.removingSignature())
        #expect(sent == ["id": 2, "code": 1, "result": .string(tx.transactionHash)])
        #expect(params["nid"] == "0x1" && params["timestamp"] == .string("0x" + String(Self.now, radix: 16)))
        #expect(params["stepLimit"] == "0x186a0" && params["version"] == "0x3" && params["nonce"] != nil)
        let token = try await connect(
            service,
            [
                "id": 3, "method": "sendToken",
                "params": [
                    "from": .string(Self.me), "to": .string(Self.other), "value": "0x10",
                    "contractAddress": "cxb0776ee37f5b45bfaea8cff1d8232fbb6122ec32",
                ],
            ])
        #expect(code(token) == 1)
        let call = try #require(node.accepted.last)
        #expect(
            call["to"] == "cxb0776ee37f5b45bfaea8cff1d8232fbb6122ec32" && call["dataType"] == "call"
                && call["value"] == nil)
        #expect(call["data"] == ["method": "transfer", "params": ["_to": .string(Self.other), "_value": "0x10"]])

        for behaviour in [IconTestDoubleNode.Behaviour.refuse, .wrongHash] {
            let bad = try await makeService(node: IconTestDoubleNode(behaviour))
            _ = try await connect(bad, ["id": 1, "method": "bind"])
            let answer = try await connect(
                bad,
                [
                    "id": 2, "method": "sendICX",
                    "params": ["from": .string(Self.me), "to": .string(Self.other), "value": "0x1"],
                ])
            #expect(code(answer) == -9999)
            #expect(answer["result"]?.stringValue?.hasPrefix("0x") == false)
        }
        let none = try await makeService(node: nil)
        _ = try await connect(none, ["id": 1, "method": "bind"])
        let answer = try await connect(
            none,
            [
                "id": 2, "method": "sendICX",
                "params": ["from": .string(Self.me), "to": .string(Self.other), "value": "0x1"],
            ])
        #expect(
            answer == ["id": 2, "code": -9999, "result": "Somethings wrong with network (no ICON node configured)"])
        #expect(await none.pendingApprovals.isEmpty)
    }

    /// The ICONex Connect v1 error table.
    @Test func errorTable() async throws {
        let service = try await makeService()
        _ = try await connect(service, ["id": 1, "method": "bind"])
        func sign(_ change: (inout JSONObject) -> Void) async throws -> JSONValue {
            guard case .object(var params) = Self.vIcon7A else { return .null }
            change(&params)
            return try await connect(service, ["id": 9, "method": "sign", "params": .object(params)])
        }
        #expect(code(try await connect(service, "not an object")) == -1001)
        #expect(code(try await connect(service, ["method": "bind"])) == -1002)
        #expect(code(try await connect(service, ["id": 1, "method": "bind", "extra": 1])) == -1002)
        #expect(code(try await connect(service, ["id": 1, "method": "transfer"])) == -1003)
        #expect(
            try await sign { $0["nid"] = nil } == ["id": 9, "code": -2002, "result": "Not found parameter. ('nid')"])
        #expect(code(try await sign { $0["value"] = nil }) == -2002)
        #expect(code(try await sign { $0["from"] = .string("hx" + String(repeating: "1", count: 40)) }) == -3001)
        #expect(code(try await sign { $0["to"] = .string(Self.me) }) == -3002)
        for bad: (String, JSONValue) in [
            ("stepLimit", "0x01"), ("stepLimit", "0XA"), ("stepLimit", "0xA"),
            ("to", "HX87A90BFE8ED49E1A25184CE77FA0D9C4B0484D6A"),
            ("version", "0x2"), ("nid", 1),
        ] {
            let answer = try await sign { $0[bad.0] = bad.1 }
            #expect(code(answer) == -3005, "\(bad.0) = \(bad.1)")
        }
        #expect(
            code(
                try await sign {
                    $0["dataType"] = "call"; $0["data"] = ["method": "m", "params": ["b": true]]
                }) == -3005)
        #expect(
            code(
                try await sign {
                    $0["dataType"] = "deploy"; $0["data"] = ["contentType": "x", "content": "0x0"]
                }) == -3005)
        #expect(code(try await sign { $0["unknown"] = "0x1" }) == -1002)
        let empty = try await makeService(withIcon: false)
        #expect(code(try await connect(empty, ["id": 1, "method": "bind"])) == -2001)
    }

    @Test func relayMessages() async throws {
        let service = try await makeService(blind: [Fixture.site])
        let has = try #require(try await service.send("icon(hasAccount)", id: "h1"))
        #expect(has.body == .response(["code": 1, "result": ["hasAccount": true]]))
        // A stranger learns nothing about the accounts.
        let stranger = try #require(try await service.send("icon(hasAddress)", .string(Self.me), id: "h2"))
        #expect(stranger.body == .response(["code": 1, "result": ["hasAddress": false]]))
        let address = try #require(try await service.send("icon(address)", id: "a1"))
        #expect(address.body == .response(["code": 1, "result": .string(Self.me)]))
        let known = try #require(try await service.send("icon(hasAddress)", ["address": .string(Self.me)], id: "h3"))
        #expect(known.body == .response(["code": 1, "result": ["hasAddress": true]]))
        // REQUEST_JSON-RPC: the JSON-RPC response inside.
        let rpc = try #require(
            try await service.send(
                "icon(jsonRpc)",
                [
                    "jsonrpc": "2.0", "id": 7, "method": "icx_sendTransaction", "params": Self.vIcon7A,
                ], id: "j1"))
        #expect(
            rpc.body
                == .response([
                    "code": 1,
                    "result": [
                        "jsonrpc": "2.0", "id": 7,
                        "result": "0x79ebc52164f2e8e51e805c688c98da7c5c5addd2ebf554b0e39876f417b83602",
                    ],
                ]))
        let wrong = try #require(
            try await service.send(
                "icon(jsonRpc)", ["jsonrpc": "2.0", "id": 8, "method": "icx_call", "params": [:]], id: "j2"))
        guard case .response(let body) = wrong.body else { Issue.record("\(wrong)"); return }
        #expect(body["result"]?["error"]?["code"] == -32601 && body["result"]?["id"] == 8)
        // REQUEST_SIGNING: only for opted-in origins, then the signature of the hash (V-ICON-2).
        let hash = "ba4da77c1dbf48071fbd3f9ee6d869580d177f01468e1e42bbb58733b9087f64"
        let blind = try #require(
            try await service.send("icon(signing)", ["from": .string(Self.me), "hash": .string(hash)], id: "s1"))
        #expect(
            blind.body
                == .response([
                    "code": 1,
                    "result":
                        "4RYSXFpcyLMg3g7ZBT3MnLQcRA3ma5CIpgQEGD8isqJPku/YnAIhJq7q8iy7+mvgni7CBX4otwuhfQLKRQ5RngE=",
                ]))
        let off = try await makeService()
        _ = try await off.send("icon(address)", id: "a1")
        let refused = try #require(
            try await off.send("icon(signing)", ["from": .string(Self.me), "hash": .string(hash)], id: "s1"))
        guard case .response(let answer) = refused.body else { Issue.record("\(refused)"); return }
        #expect(answer["code"] != 1 && answer["result"]?.stringValue?.contains("blind signing is off") == true)
        // The person's per-site switch (approval page, `sigil origins blind-signing`) opens it too.
        try await off.setBlindSigning(true, for: Fixture.site)
        let allowed = try #require(
            try await off.send("icon(signing)", ["from": .string(Self.me), "hash": .string(hash)], id: "s2"))
        guard case .response(let signed) = allowed.body else { Issue.record("\(allowed)"); return }
        #expect(signed["code"] == 1)
    }

    @Test func theTerminalShowsIconRequestsInWords() async throws {
        let service = try await makeService(mode: .person)
        _ = try await connect(service, ["id": 1, "method": "bind"], approve: true)
        _ = try await service.send(
            "icon(connect)", ["id": 2, "method": "sign", "params": Self.vIcon7A], id: "c2")
        let approval = try #require(await service.pendingApprovals.first)
        let text = TerminalPrompt.describe(approval, accounts: [])
        #expect(text.hasPrefix("== Sign an ICON transaction for \(Fixture.site)? (the site sends it)"))
        #expect(
            text.contains("network: ICON Mainnet (nid 0x1)") && text.contains("value: 1 ICX (1000000000000000000 loop)")
        )
        #expect(text.contains("timestamp: 2022-01-13 04:34:03 UTC") && text.contains("step limit: 100000"))
        #expect(TerminalPrompt.prompt(approval.subject) == "Approve? [y/N] ")
    }

    @Test func registryHoldsTheIconMethods() throws {
        let registry = try MethodRegistry.standard()
        for method in IconMethod.allCases {
            #expect(registry.method(named: method.type.name) == .icon(method))
            #expect(method.type.wireProtocol == .icon)
        }
        #expect(
            IconErrorMapper().body(for: SignerError(.cancelled, ""), source: "x")
                == .response(["code": -1000, "result": "Operation canceled by user."]))
    }
}

extension JSONValue {
    /// The object without `signature`.
    func removingSignature() -> JSONValue {
        guard case .object(var o) = self else { return self }
        o["signature"] = nil
        return .object(o)
    }
}
