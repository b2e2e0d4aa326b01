import EthereumCodec
import Primitives
import SignerCore
import SigningKeys
import Testing

@testable import Gateway

/// The Ethereum adapter (docs/protocol.md "Ethereum") driven directly, without sockets: a scripted
/// person and grant book (``SeamTestDouble``), the dev keys (``EthereumTestSigner``), and a node
/// (``EthereumRPCTestDouble``). Signatures are checked by recovery, never by comparing to a stored answer.
@Suite struct EthereumServiceTests {
    static let site = "https://app.example.org"
    static let dev0 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
    static let dev1 = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
    static let recipient = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc"
    static let token = "0x5fbdb2315678afecb367f032d93f642f64180aa3"

    struct Setup {
        let service: EthereumService
        let seam: SeamTestDouble
        let signer: EthereumTestSigner
    }

    static func setup(
        answers: [Bool?] = [], granted: Bool = true, endpoints: [any EthereumRPC] = [], blind: Bool = false
    ) -> Setup {
        let seam = SeamTestDouble(
            answers: answers, grants: granted ? [site: [dev0]] : [:], blind: blind ? [site] : [])
        let signer = EthereumTestSigner()
        let service = EthereumService(
            signer: signer, grants: seam, approver: seam, endpoints: endpoints, now: { 1_700_000_000 })
        return Setup(service: service, seam: seam, signer: signer)
    }

    static func call(_ s: Setup, _ method: String, _ params: JSONValue = []) async -> JSONValue {
        let body: JSONValue = ["jsonrpc": "2.0", "id": 42, "method": .string(method), "params": params]
        return await s.service.handle(body: body.encoded(), origin: site)
    }

    static func code(_ reply: JSONValue) -> Int? { reply["error"]?["code"]?.integer(as: Int.self) }

    static func bytes(_ reply: JSONValue) -> [UInt8]? {
        reply["result"]?.stringValue.flatMap { try? Hex.decode($0, prefix: .required) }
    }

    // MARK: Error codes

    struct ErrorCase: Sendable, CustomTestStringConvertible {
        let name: String
        let body: String
        let granted: Bool
        let code: Int
        var testDescription: String { name }
    }

    static let errorCases: [ErrorCase] = [
        ErrorCase(name: "not JSON", body: "{nope", granted: true, code: -32700),
        ErrorCase(
            name: "not JSON-RPC 2.0", body: #"{"jsonrpc":"1.0","id":1,"method":"eth_chainId"}"#, granted: true,
            code: -32600),
        ErrorCase(name: "no id", body: #"{"jsonrpc":"2.0","method":"eth_chainId"}"#, granted: true, code: -32600),
        ErrorCase(name: "unknown method", body: rpc("eth_mine", "[]"), granted: true, code: 4200),
        ErrorCase(
            name: "raw send from a site", body: rpc("eth_sendRawTransaction", #"["0x00"]"#), granted: true, code: 4200),
        ErrorCase(
            name: "eth_sign without blind signing",
            body: rpc("eth_sign", #"["\#(dev0)","0x\#(String(repeating: "11", count: 32))"]"#),
            granted: true, code: 4200),
        ErrorCase(
            name: "personal_sign never granted", body: rpc("personal_sign", #"["0x68656c6c6f","\#(dev0)"]"#),
            granted: false, code: 4100),
        ErrorCase(
            name: "personal_sign another account", body: rpc("personal_sign", #"["hi","\#(dev1)"]"#), granted: true,
            code: 4100),
        ErrorCase(
            name: "typed data never granted", body: rpc("eth_signTypedData_v4", #"["\#(dev0)","{}"]"#), granted: false,
            code: 4100),
        ErrorCase(
            name: "transaction never granted",
            body: rpc("eth_sendTransaction", #"[{"from":"\#(dev0)","to":"\#(recipient)"}]"#),
            granted: false, code: 4100),
        ErrorCase(
            name: "eth_sign never granted", body: rpc("eth_sign", #"["\#(dev0)","0x00"]"#), granted: false, code: 4100),
        ErrorCase(name: "personal_sign without params", body: rpc("personal_sign", "[]"), granted: true, code: -32602),
        ErrorCase(
            name: "personal_sign bad hex", body: rpc("personal_sign", #"["0xzz","\#(dev0)"]"#), granted: true,
            code: -32602),
        ErrorCase(
            name: "typed data not JSON", body: rpc("eth_signTypedData_v4", #"["\#(dev0)","{"]"#), granted: true,
            code: -32602),
        ErrorCase(
            name: "transaction with an unknown field",
            body: rpc("eth_sendTransaction", #"[{"from":"\#(dev0)","bogus":"0x1"}]"#), granted: true, code: -32602),
        ErrorCase(
            name: "transaction mixing fee kinds",
            body: rpc("eth_sendTransaction", #"[{"from":"\#(dev0)","gasPrice":"0x1","maxFeePerGas":"0x2"}]"#),
            granted: true, code: -32602),
        ErrorCase(
            name: "send without an endpoint",
            body: rpc("eth_sendTransaction", #"[{"from":"\#(dev0)","to":"\#(recipient)"}]"#),
            granted: true, code: 4900),
        ErrorCase(
            name: "switch to an unknown chain", body: rpc("wallet_switchEthereumChain", #"[{"chainId":"0x89"}]"#),
            granted: true, code: 4902),
        ErrorCase(
            name: "switch with a bad chain id", body: rpc("wallet_switchEthereumChain", #"[{"chainId":"0x01"}]"#),
            granted: true, code: -32602),
        ErrorCase(
            name: "add a chain without an endpoint", body: rpc("wallet_addEthereumChain", #"[{"chainId":"0x89"}]"#),
            granted: true, code: -32602),
        ErrorCase(
            name: "read-only without an endpoint", body: rpc("eth_getBalance", #"["\#(dev0)","latest"]"#),
            granted: true, code: 4900),
        ErrorCase(
            name: "permissions other than eth_accounts", body: rpc("wallet_requestPermissions", #"[{"snap":{}}]"#),
            granted: true, code: -32602),
    ]

    static func rpc(_ method: String, _ params: String) -> String {
        #"{"jsonrpc":"2.0","id":"a1","method":"\#(method)","params":\#(params)}"#
    }

    @Test(arguments: errorCases) func errorsHaveTheirEip1193Codes(_ c: ErrorCase) async {
        let s = Self.setup(answers: [true], granted: c.granted)
        let reply = await s.service.handle(body: Array(c.body.utf8), origin: Self.site)
        #expect(Self.code(reply) == c.code, "\(reply)")
        #expect(reply["jsonrpc"] == "2.0")
        #expect(reply["error"]?["message"]?.stringValue?.isEmpty == false)
        // Nothing was asked or signed.
        #expect(s.seam.approvals.isEmpty)
        #expect(s.signer.signedHashes.isEmpty)
    }

    // MARK: Accounts and permissions

    @Test func theGrantFlowAsksOnceAndIsRevocable() async throws {
        let s = Self.setup(answers: [true], granted: false)
        #expect(await Self.call(s, "eth_accounts")["result"] == [])
        #expect(await Self.call(s, "wallet_getPermissions")["result"] == [])
        let reply = await Self.call(s, "eth_requestAccounts")
        #expect(reply["result"] == [.string(Self.dev0.lowercased())])
        #expect(reply["id"] == 42)
        let asked = try #require(s.seam.approvals.first)
        #expect(asked.wallet == "ethereum")
        #expect(asked.sentence == "Connect \(Self.site) to your Ethereum account \(Self.dev0)?")
        #expect(asked.account == Self.dev0)
        #expect(s.seam.grants[Self.site] == [Self.dev0])
        #expect(s.seam.pushes.last?.event == "ethereum.accountsChanged")
        #expect(s.seam.pushes.last?.payload == [.string(Self.dev0.lowercased())])
        // Granted: asked no more.
        #expect(await Self.call(s, "eth_requestAccounts")["result"] == [.string(Self.dev0.lowercased())])
        #expect(await Self.call(s, "eth_accounts")["result"] == [.string(Self.dev0.lowercased())])
        #expect(s.seam.approvals.count == 1)
        let permissions = await Self.call(s, "wallet_getPermissions")["result"]
        let permission = try #require(permissions?.arrayValue?.first)
        #expect(permission["parentCapability"] == "eth_accounts")
        #expect(permission["invoker"] == .string(Self.site))
        #expect(
            permission["caveats"] == [["type": "restrictReturnedAccounts", "value": [.string(Self.dev0.lowercased())]]])
        // Revoked: other protocols' keys stay, Ethereum's go.
        try await s.seam.setGrantedAccounts(Self.site, appName: "", accounts: ["hxabc"], ownKey: { $0 == "hxabc" })
        #expect(await Self.call(s, "wallet_revokePermissions", [["eth_accounts": [:]]])["result"] == .null)
        #expect(s.seam.grants[Self.site] == ["hxabc"])
        #expect(s.seam.pushes.last?.payload == [])
        #expect(await Self.call(s, "eth_accounts")["result"] == [])
        #expect(Self.code(await Self.call(s, "personal_sign", ["0x00", .string(Self.dev0)])) == 4100)
    }

    @Test func requestPermissionsAnswersEip2255Objects() async throws {
        let s = Self.setup(answers: [true], granted: false)
        let reply = await Self.call(s, "wallet_requestPermissions", [["eth_accounts": [:]]])
        #expect(reply["result"]?.arrayValue?.first?["parentCapability"] == "eth_accounts")
        #expect(s.seam.approvals.count == 1)
    }

    @Test(arguments: [false, nil] as [Bool?]) func aRefusedConnectionIs4001AndGrantsNothing(answer: Bool?) async {
        let s = Self.setup(answers: [answer], granted: false)
        #expect(Self.code(await Self.call(s, "eth_requestAccounts")) == 4001)
        #expect(s.seam.grants.isEmpty)
        #expect(s.seam.pushes.isEmpty)
        #expect(await Self.call(s, "eth_accounts")["result"] == [])
    }

    // MARK: Chains

    @Test func chainsComeFromTheEndpointsAndSwitchingPushesChainChanged() async {
        let mainnet = EthereumRPCTestDouble(chainId: 1)
        let sepolia = EthereumRPCTestDouble(chainId: 11_155_111)
        let s = Self.setup(endpoints: [sepolia, mainnet])
        #expect(await Self.call(s, "eth_chainId")["result"] == "0xaa36a7")
        #expect(await Self.call(s, "net_version")["result"] == "11155111")
        #expect(await Self.call(s, "wallet_switchEthereumChain", [["chainId": "0x1"]])["result"] == .null)
        #expect(await Self.call(s, "eth_chainId")["result"] == "0x1")
        #expect(s.seam.pushes.last?.event == "ethereum.chainChanged")
        #expect(s.seam.pushes.last?.payload == "0x1")
        #expect(Self.code(await Self.call(s, "wallet_switchEthereumChain", [["chainId": "0x89"]])) == 4902)
        // Read-only calls go to the site's chain.
        #expect(await Self.call(s, "eth_getBalance", [.string(Self.dev0), "latest"])["result"] == "0xde0b6b3a7640000")
        #expect(mainnet.requests.contains { $0.0 == "eth_getBalance" })
        #expect(!sepolia.requests.contains { $0.0 == "eth_getBalance" })
        // Adding a configured chain asks the person; a chain without an endpoint is refused unasked.
        #expect(
            Self.code(await Self.call(s, "wallet_addEthereumChain", [["chainId": "0x89", "chainName": "Polygon"]]))
                == -32602)
        #expect(s.seam.approvals.isEmpty)
        #expect(Self.code(await Self.call(s, "wallet_addEthereumChain", [["chainId": "0xaa36a7"]])) == 4001)
        #expect(s.seam.approvals.count == 1)
    }

    @Test func withoutEndpointsTheChainIsOne() async {
        let s = Self.setup()
        #expect(await Self.call(s, "eth_chainId")["result"] == "0x1")
        #expect(await Self.call(s, "net_version")["result"] == "1")
    }

    // MARK: personal_sign

    struct MessageCase: Sendable, CustomTestStringConvertible {
        let name: String
        let param: String
        let message: [UInt8]
        let readable: Bool
        var testDescription: String { name }
    }

    static let messageCases: [MessageCase] = [
        MessageCase(name: "text", param: "Hello, Sigil", message: Array("Hello, Sigil".utf8), readable: true),
        MessageCase(name: "hex text", param: "0x68656c6c6f", message: Array("hello".utf8), readable: true),
        MessageCase(name: "binary", param: "0x00ff10", message: [0x00, 0xff, 0x10], readable: false),
    ]

    @Test(arguments: messageCases) func personalSignRecoversToTheAccount(_ c: MessageCase) async throws {
        let s = Self.setup(answers: [true])
        let reply = await Self.call(s, "personal_sign", [.string(c.param), .string(Self.dev0)])
        let signature = try #require(Self.bytes(reply), "\(reply)")
        #expect(signature.count == 65)
        #expect(signature[64] == 27 || signature[64] == 28)
        #expect(try PersonalMessage.recoverSigner(c.message, signature: signature).checksummed == Self.dev0)
        let approval = try #require(s.seam.approvals.first)
        #expect(approval.requestId == PersonalMessage.hash(c.message))
        #expect(s.signer.signedHashes == [approval.requestId])
        #expect(approval.warnings.isEmpty == c.readable)
    }

    @Test func aRejectedSignatureIs4001AndNothingIsSigned() async {
        let s = Self.setup(answers: [false])
        #expect(Self.code(await Self.call(s, "personal_sign", ["hi", .string(Self.dev0)])) == 4001)
        #expect(s.signer.signedHashes.isEmpty)
        #expect(s.seam.signatures.isEmpty)
    }

    static func siwe(domain: String, address: String = dev0, chain: Int = 1, expiry: String? = nil) -> String {
        var text = """
            \(domain) wants you to sign in with your Ethereum account:
            \(address)

            Sign in to the app.

            URI: https://\(domain)/login
            Version: 1
            Chain ID: \(chain)
            Nonce: 32891756abcd
            Issued At: 2023-11-14T22:00:00Z
            """
        if let expiry { text += "\nExpiration Time: \(expiry)" }
        return text
    }

    struct SiweCase: Sendable, CustomTestStringConvertible {
        let name: String
        let text: String
        let warning: String?
        var testDescription: String { name }
    }

    static let siweCases: [SiweCase] = [
        SiweCase(name: "matching", text: siwe(domain: "app.example.org"), warning: nil),
        SiweCase(name: "another domain", text: siwe(domain: "app.evil.example"), warning: "DOMAIN MISMATCH"),
        SiweCase(
            name: "another address", text: siwe(domain: "app.example.org", address: dev1), warning: "ADDRESS MISMATCH"),
        SiweCase(name: "another chain", text: siwe(domain: "app.example.org", chain: 5), warning: "CHAIN MISMATCH"),
        SiweCase(
            name: "expired", text: siwe(domain: "app.example.org", expiry: "2023-11-14T22:10:00Z"), warning: "EXPIRED"),
        SiweCase(
            name: "malformed", text: "app.example.org wants you to sign in with your Ethereum account:\nnope",
            warning: "does not follow ERC-4361"),
    ]

    @Test(arguments: siweCases) func signInWithEthereumIsCheckedAgainstTheOrigin(_ c: SiweCase) async throws {
        let s = Self.setup(answers: [true])
        let reply = await Self.call(s, "personal_sign", [.string(c.text), .string(Self.dev0)])
        #expect(Self.bytes(reply)?.count == 65)
        let approval = try #require(s.seam.approvals.first)
        if let warning = c.warning {
            #expect(approval.warnings.contains { $0.contains(warning) }, "\(approval.warnings)")
            #expect(approval.summary.first?.label == "warning", "warnings come first")
        } else {
            #expect(approval.warnings.isEmpty, "\(approval.warnings)")
            #expect(approval.sentence == "Sign in to app.example.org as \(Self.dev0)?")
        }
    }

    // MARK: eth_signTypedData_v4

    static func permit(chainId: Int = 1, value: String, primary: String = "Permit") -> String {
        """
        {"types":{"EIP712Domain":[{"name":"name","type":"string"},{"name":"version","type":"string"},\
        {"name":"chainId","type":"uint256"},{"name":"verifyingContract","type":"address"}],\
        "Permit":[{"name":"owner","type":"address"},{"name":"spender","type":"address"},\
        {"name":"value","type":"uint256"},{"name":"nonce","type":"uint256"},{"name":"deadline","type":"uint256"}]},\
        "primaryType":"\(primary)","domain":{"name":"USD Coin","version":"2","chainId":\(chainId),\
        "verifyingContract":"\(token)"},"message":{"owner":"\(dev0)","spender":"\(recipient)",\
        "value":"\(value)","nonce":0,"deadline":1700003600}}
        """
    }

    static let maxUInt256 = "115792089237316195423570985008687907853269984665640564039457584007913129639935"

    @Test(arguments: [("1000000", "1.000000 USDC"), (maxUInt256, "UNLIMITED")])
    func aPermitIsPutInWordsAndTheSignatureRecovers(value: String, words: String) async throws {
        let node = EthereumRPCTestDouble(tokens: [Self.token: .init(symbol: "USDC", decimals: 6)])
        let s = Self.setup(answers: [true], endpoints: [node])
        let text = Self.permit(value: value)
        let reply = await Self.call(s, "eth_signTypedData_v4", [.string(Self.dev0), .string(text)])
        let signature = try #require(Self.bytes(reply), "\(reply)")
        let digest = try TypedData(jsonText: Array(text.utf8)).digest()
        let recovered = try EthereumKeyPair.recoverAddress(signature: signature, hash: digest)
        #expect(EthereumKeyPair.checksumAddress(recovered) == Self.dev0)
        let approval = try #require(s.seam.approvals.first)
        #expect(approval.requestId == digest)
        let sentence = try #require(approval.sentence)
        #expect(sentence.contains(words), "\(sentence)")
        #expect(sentence.contains("2023-11-14 23:13:20 UTC"), "\(sentence)")
        #expect(approval.summary.contains { $0.label == "message.spender" })
        #expect(!approval.warnings.isEmpty)
    }

    @Test func typedDataForAnotherChainIsRefusedUnasked() async {
        let s = Self.setup(answers: [true])
        let reply = await Self.call(
            s, "eth_signTypedData_v4", [.string(Self.dev0), .string(Self.permit(chainId: 5, value: "1"))])
        #expect(Self.code(reply) == -32602)
        #expect(s.seam.approvals.isEmpty)
    }

    @Test func permit2AllowanceAtTheUInt160MaximumIsUnlimited() async throws {
        let text = """
            {"types":{"EIP712Domain":[{"name":"name","type":"string"},{"name":"chainId","type":"uint256"},\
            {"name":"verifyingContract","type":"address"}],"PermitSingle":[{"name":"details","type":"PermitDetails"},\
            {"name":"spender","type":"address"},{"name":"sigDeadline","type":"uint256"}],\
            "PermitDetails":[{"name":"token","type":"address"},{"name":"amount","type":"uint160"},\
            {"name":"expiration","type":"uint48"},{"name":"nonce","type":"uint48"}]},"primaryType":"PermitSingle",\
            "domain":{"name":"Permit2","chainId":1,"verifyingContract":"0x000000000022D473030F116dDEE9F6B43aC78BA3"},\
            "message":{"details":{"token":"\(Self.token)","amount":"1461501637330902918203684832716283019655932542975",\
            "expiration":1700003600,"nonce":0},"spender":"\(Self.recipient)","sigDeadline":1700003600}}
            """
        let s = Self.setup(answers: [true])
        let reply = await Self.call(s, "eth_signTypedData_v4", [.string(Self.dev0), .string(text)])
        #expect(Self.bytes(reply)?.count == 65, "\(reply)")
        let approval = try #require(s.seam.approvals.first)
        #expect(approval.sentence?.contains("UNLIMITED") == true, "\(approval.sentence ?? "")")
        #expect(approval.sentence?.contains("Permit2") == true)
    }

    /// A DAI-style permit (another `Permit` type) with undeclared `value` and `deadline` keys, which
    /// hashing ignores: no sentence may read them (before: "spend 0.000000000000000001" while the
    /// signature granted DAI's unlimited allowance). The rows still list every declared field.
    @Test func aPermitOfAnotherTypeIsNotPutInWords() async throws {
        let text = """
            {"types":{"EIP712Domain":[{"name":"name","type":"string"},{"name":"chainId","type":"uint256"},\
            {"name":"verifyingContract","type":"address"}],"Permit":[{"name":"holder","type":"address"},\
            {"name":"spender","type":"address"},{"name":"nonce","type":"uint256"},{"name":"expiry","type":"uint256"},\
            {"name":"allowed","type":"bool"}]},"primaryType":"Permit","domain":{"name":"Dai Stablecoin","chainId":1,\
            "verifyingContract":"\(Self.token)"},"message":{"holder":"\(Self.dev0)","spender":"\(Self.recipient)",\
            "nonce":0,"expiry":4102444800,"allowed":true,"value":"1","deadline":"1700000000"}}
            """
        let s = Self.setup(answers: [true])
        let reply = await Self.call(s, "eth_signTypedData_v4", [.string(Self.dev0), .string(text)])
        #expect(Self.bytes(reply)?.count == 65, "\(reply)")
        let approval = try #require(s.seam.approvals.first)
        // The plain sentence, which claims no amount or deadline.
        #expect(approval.sentence?.hasPrefix("Sign Permit data for") == true, "\(approval.sentence ?? "")")
        #expect(approval.summary.contains { $0.label == "message.allowed" && $0.value == "true" })
    }

    /// Permit2's name on another contract, or a batch longer than a sentence holds: no sentence, a
    /// warning, every entry in the rows.
    @Test func permit2IsPutInWordsOnlyAtItsAddressAndForShortBatches() async throws {
        func batch(_ count: Int, contract: String) -> String {
            let entries = (0..<count).map { _ in
                #"{"token":"\#(Self.token)","amount":"1","expiration":1700003600,"nonce":0}"#
            }.joined(separator: ",")
            return """
                {"types":{"EIP712Domain":[{"name":"name","type":"string"},{"name":"chainId","type":"uint256"},\
                {"name":"verifyingContract","type":"address"}],"PermitBatch":[{"name":"details","type":"PermitDetails[]"},\
                {"name":"spender","type":"address"},{"name":"sigDeadline","type":"uint256"}],\
                "PermitDetails":[{"name":"token","type":"address"},{"name":"amount","type":"uint160"},\
                {"name":"expiration","type":"uint48"},{"name":"nonce","type":"uint48"}]},"primaryType":"PermitBatch",\
                "domain":{"name":"Permit2","chainId":1,"verifyingContract":"\(contract)"},\
                "message":{"details":[\(entries)],"spender":"\(Self.recipient)","sigDeadline":1700003600}}
                """
        }
        let permit2 = "0x000000000022D473030F116dDEE9F6B43aC78BA3"
        for (count, contract, worded) in [(2, permit2, true), (21, permit2, false), (2, Self.token, false)] {
            let s = Self.setup(answers: [true])
            let reply = await Self.call(
                s, "eth_signTypedData_v4", [.string(Self.dev0), .string(batch(count, contract: contract))])
            #expect(Self.bytes(reply)?.count == 65, "\(reply)")
            let approval = try #require(s.seam.approvals.first)
            let plain = approval.sentence?.hasPrefix("Sign PermitBatch data for") == true
            #expect(plain != worded, "\(count) at \(contract): \(approval.sentence ?? "nil")")
            if !worded { #expect(!approval.warnings.isEmpty) }
        }
    }

    // MARK: eth_sign

    @Test func ethSignNeedsTheBlindSwitchAndCarriesTheWarning() async throws {
        let hash = [UInt8](repeating: 0x42, count: 32)
        let s = Self.setup(answers: [true], blind: true)
        let reply = await Self.call(s, "eth_sign", [.string(Self.dev0), .string(EthereumText.hex(hash))])
        let signature = try #require(Self.bytes(reply), "\(reply)")
        #expect(
            EthereumKeyPair.checksumAddress(try EthereumKeyPair.recoverAddress(signature: signature, hash: hash))
                == Self.dev0)
        let approval = try #require(s.seam.approvals.first)
        #expect(approval.summary.first?.label == "warning")
        #expect(approval.warnings.first?.hasPrefix("BLIND SIGNING") == true)
    }

    // MARK: Transactions

    struct TxCase: Sendable, CustomTestStringConvertible {
        let name: String
        let fields: [String: JSONValue]
        let type: EthereumTransactionType
        let baseFee: UInt256?
        var testDescription: String { name }
    }

    static let txCases: [TxCase] = [
        TxCase(name: "EIP-1559 filled", fields: [:], type: .dynamicFee, baseFee: 30_000_000_000),
        TxCase(
            name: "legacy with gasPrice", fields: ["gasPrice": "0x3b9aca00"], type: .legacy, baseFee: 30_000_000_000),
        TxCase(
            name: "EIP-2930 with an access list",
            fields: ["gasPrice": "0x3b9aca00", "accessList": [["address": .string(recipient), "storageKeys": []]]],
            type: .accessList, baseFee: 30_000_000_000),
        TxCase(name: "pre-London chain becomes legacy", fields: [:], type: .legacy, baseFee: nil),
        TxCase(
            name: "site's own nonce and fees",
            fields: [
                "nonce": "0x2a", "gas": "0x5208", "maxFeePerGas": "0x77359400", "maxPriorityFeePerGas": "0x3b9aca00",
            ],
            type: .dynamicFee, baseFee: 30_000_000_000),
    ]

    static func transaction(_ fields: [String: JSONValue]) -> JSONValue {
        var object: [String: JSONValue] = [
            "from": .string(dev0), "to": .string(recipient), "value": "0xde0b6b3a7640000",
        ]
        for (k, v) in fields { object[k] = v }
        return [.object(object)]
    }

    @Test(arguments: txCases) func aSentTransactionIsTheApprovedOne(_ c: TxCase) async throws {
        let node = EthereumRPCTestDouble(baseFee: c.baseFee)
        let s = Self.setup(answers: [true], endpoints: [node])
        let reply = await Self.call(s, "eth_sendTransaction", Self.transaction(c.fields))
        let raw = try #require(node.sentRaw.first, "\(reply)")
        #expect(reply["result"] == .string(EthereumText.hex(Keccak256.hash(raw))))
        guard case .signed(let signed) = try EthereumTransaction.decode(raw) else {
            Issue.record("not a signed transaction")
            return
        }
        #expect(signed.transaction.type == c.type)
        #expect(try signed.recoverSender().checksummed == Self.dev0)
        let approval = try #require(s.seam.approvals.first)
        // What was shown is what was signed: the approval's hash is the sent transaction's.
        #expect(approval.requestId == signed.transaction.signingHash)
        #expect(s.signer.signedHashes == [approval.requestId])
        #expect(signed.transaction.chainId == 1)
        let nonce = c.fields["nonce"] == nil ? node.nonce : 42
        #expect(signed.transaction.nonce == nonce)
        #expect(approval.summary.contains { $0.label == "nonce" && $0.value == String(nonce) })
        #expect(approval.summary.contains { $0.label == "value" && $0.value == "1.000000000000000000 ETH" })
        if c.type == .dynamicFee && c.fields.isEmpty {
            #expect(signed.transaction.maxPriorityFeePerGas == node.tip)
            #expect(signed.transaction.maxFeePerGas == UInt256(61_500_000_000))
            #expect(approval.summary.contains { $0.label == "max fee per gas" && $0.value == "61.500000000 gwei" })
        }
        // Filled before the person was asked: the node was asked nothing after the approval but the send.
        #expect(node.requests.last?.0 == "eth_sendRawTransaction")
    }

    @Test func withoutEthMaxPriorityFeePerGasTheTipComesFromFeeHistory() async throws {
        let node = EthereumRPCTestDouble(tip: 2_000_000_000, feeHistoryOnly: true)
        let s = Self.setup(answers: [true], endpoints: [node])
        let reply = await Self.call(s, "eth_sendTransaction", Self.transaction([:]))
        let raw = try #require(node.sentRaw.first, "\(reply)")
        guard case .signed(let signed) = try EthereumTransaction.decode(raw) else {
            Issue.record("not a signed transaction")
            return
        }
        #expect(signed.transaction.maxPriorityFeePerGas == UInt256(2_000_000_000))
        #expect(signed.transaction.maxFeePerGas == UInt256(62_000_000_000))
    }

    @Test func signTransactionReturnsTheSignedBytesAndSendsNothing() async throws {
        let node = EthereumRPCTestDouble()
        let s = Self.setup(answers: [true], endpoints: [node])
        let reply = await Self.call(s, "eth_signTransaction", Self.transaction([:]))
        let raw = try #require(Self.bytes(reply), "\(reply)")
        guard case .signed(let signed) = try EthereumTransaction.decode(raw) else {
            Issue.record("not a signed transaction")
            return
        }
        #expect(try signed.recoverSender().checksummed == Self.dev0)
        #expect(node.sentRaw.isEmpty)
    }

    @Test(arguments: [false, nil] as [Bool?]) func aRejectedTransactionIs4001AndNothingIsSent(answer: Bool?) async {
        let node = EthereumRPCTestDouble()
        let s = Self.setup(answers: [answer], endpoints: [node])
        #expect(Self.code(await Self.call(s, "eth_sendTransaction", Self.transaction([:]))) == 4001)
        #expect(node.sentRaw.isEmpty)
        #expect(s.signer.signedHashes.isEmpty)
    }

    @Test(arguments: [
        (EthereumRPCTestDouble.SendAnswer.otherHash, -32603), (EthereumRPCTestDouble.SendAnswer.error, -32000),
    ])
    func aHashIsReturnedOnlyWhenTheEndpointAcceptedTheSignedTransaction(
        answer: EthereumRPCTestDouble.SendAnswer, code: Int
    ) async {
        let node = EthereumRPCTestDouble(sendAnswer: answer)
        let s = Self.setup(answers: [true], endpoints: [node])
        let reply = await Self.call(s, "eth_sendTransaction", Self.transaction([:]))
        #expect(Self.code(reply) == code, "\(reply)")
        #expect(reply["result"] == nil)
    }

    @Test func aTransactionForAnotherChainIsRefusedUnasked() async {
        let s = Self.setup(answers: [true], endpoints: [EthereumRPCTestDouble()])
        #expect(Self.code(await Self.call(s, "eth_sendTransaction", Self.transaction(["chainId": "0x5"]))) == -32602)
        #expect(s.seam.approvals.isEmpty)
    }

    // MARK: Calldata in words

    struct CallCase: Sendable, CustomTestStringConvertible {
        let name: String
        let data: String
        let to: String?
        let words: String
        let warns: Bool
        var testDescription: String { name }
    }

    static func word(_ hex: String) -> String { String(repeating: "0", count: 64 - hex.count) + hex }
    static func call(_ signature: String, _ words: [String]) -> String {
        EthereumText.hex(Calldata.selector(signature)) + words.map(word).joined()
    }

    static let callCases: [CallCase] = [
        CallCase(
            name: "ERC-20 transfer",
            data: call("transfer(address,uint256)", [String(recipient.dropFirst(2)), "1e8480"]),
            to: token, words: "Send 2.000000 USDC of USDC", warns: false),
        CallCase(
            name: "unlimited ERC-20 approve",
            data: call(
                "approve(address,uint256)", [String(recipient.dropFirst(2)), String(repeating: "f", count: 64)]),
            to: token, words: "UNLIMITED", warns: true),
        CallCase(
            name: "setApprovalForAll",
            data: call("setApprovalForAll(address,bool)", [String(recipient.dropFirst(2)), "1"]),
            to: recipient, words: "control of ALL your tokens", warns: true),
        CallCase(
            name: "ERC-721 transfer",
            data: call(
                "safeTransferFrom(address,address,uint256)",
                [String(dev0.dropFirst(2)).lowercased(), String(recipient.dropFirst(2)), "7"]),
            to: recipient, words: "Transfer NFT #7", warns: false),
        CallCase(
            name: "unknown selector", data: "0xdeadbeef00", to: recipient, words: "selector 0xdeadbeef", warns: true),
        CallCase(
            name: "contract creation", data: "0x6080604052", to: nil,
            words: "Deploy a new contract (5 bytes of code) at 0x", warns: false),
    ]

    @Test(arguments: callCases) func calldataIsPutInWords(_ c: CallCase) async throws {
        let node = EthereumRPCTestDouble(tokens: [Self.token: .init(symbol: "USDC", decimals: 6)])
        let s = Self.setup(answers: [false], endpoints: [node])
        var object: [String: JSONValue] = ["from": .string(Self.dev0), "data": .string(c.data)]
        if let to = c.to { object["to"] = .string(to) }
        _ = await Self.call(s, "eth_sendTransaction", [.object(object)])
        let approval = try #require(s.seam.approvals.first)
        let sentence = try #require(approval.sentence)
        #expect(sentence.contains(c.words), "\(sentence)")
        #expect(approval.warnings.isEmpty == !c.warns, "\(approval.warnings)")
    }

    // MARK: Numbers

    @Test(arguments: [
        (UInt256(0), "0.000000000000000000 ETH"), (UInt256(1), "0.000000000000000001 ETH"),
        (UInt256(1_500_000_000_000_000_000), "1.500000000000000000 ETH"),
        (UInt256.max, "115792089237316195423570985008687907853269984665640564039457.584007913129639935 ETH"),
    ])
    func etherIsExact(wei: UInt256, text: String) {
        #expect(EthereumText.ether(wei) == text)
    }

    @Test(arguments: [
        (UInt256(0), "1970-01-01 00:00:00 UTC"), (UInt256(1_700_003_600), "2023-11-14 23:13:20 UTC"),
        (UInt256(951_782_400), "2000-02-29 00:00:00 UTC"),
    ])
    func datesAreComputedWithIntegers(seconds: UInt256, text: String) {
        #expect(EthereumText.date(seconds) == text)
    }
}

/// Bounds: nesting, sizes, rows.
@Suite struct EthereumBoundsTests {
    @Test func deeplyNestedBodiesAreParseErrors() async {
        let s = EthereumServiceTests.setup()
        let nested = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        let body = #"{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":\#(nested)}"#
        let reply = await s.service.handle(body: Array(body.utf8), origin: EthereumServiceTests.site)
        #expect(EthereumServiceTests.code(reply) == -32700)
    }

    @Test func typedDataRowsAreCappedWithAWarning() async throws {
        let items = (0..<300).map { "\"\($0)\"" }.joined(separator: ",")
        let text = """
            {"types":{"EIP712Domain":[{"name":"chainId","type":"uint256"}],"Big":[{"name":"items","type":"uint256[]"}]},\
            "primaryType":"Big","domain":{"chainId":1},"message":{"items":[\(items)]}}
            """
        let s = EthereumServiceTests.setup(answers: [true])
        let reply = await EthereumServiceTests.call(
            s, "eth_signTypedData_v4", [.string(EthereumServiceTests.dev0), .string(text)])
        #expect(EthereumServiceTests.bytes(reply)?.count == 65, "\(reply)")
        let approval = try #require(s.seam.approvals.first)
        #expect(approval.summary.count < 260)
        #expect(approval.warnings.contains { $0.contains("more field(s) are not shown") })
        #expect(approval.requestId == (try TypedData(jsonText: Array(text.utf8)).digest()))
    }

    @Test func anEndpointsErrorIsPassedOn() async {
        let s = EthereumServiceTests.setup(endpoints: [EthereumRPCTestDouble()])
        let reply = await EthereumServiceTests.call(s, "eth_getLogs", [[:]])
        #expect(EthereumServiceTests.code(reply) == -32601)
    }
}

@Suite struct EthereumTimeTests {
    @Test(arguments: [
        ("2023-11-14T22:13:20Z", 1_700_000_000 as UInt64?), ("2023-11-14T22:13:20.123Z", 1_700_000_000),
        ("2023-11-15T00:13:20+02:00", 1_700_000_000), ("1970-01-01T00:00:00Z", 0),
        ("2000-02-29T00:00:00z", 951_782_400),
        ("2023-13-14T22:13:20Z", nil), ("2023-11-14 22:13:20", nil), ("1969-12-31T23:59:59Z", nil), ("", nil),
    ])
    func rfc3339TimesAreReadWithIntegers(text: String, seconds: UInt64?) {
        #expect(EthereumService.rfc3339Seconds(text) == seconds)
    }
}
