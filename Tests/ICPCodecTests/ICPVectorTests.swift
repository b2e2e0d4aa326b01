import Foundation
import Primitives
import SigningKeys
import Testing

@testable import ICPCodec

/// V-ICP-1..8 byte for byte (Resources/icp-vectors.json; rules in docs/reference/icp.md).
@Suite struct ICPVectorTests {
    static let requestIds = Vectors.list("requestIds").compactMap { $0["id"]?.stringValue }

    @Test func allVectorsLoaded() {
        #expect(ICPVectorTests.requestIds.count == 7)
        #expect(Vectors.list("principals").count == 8)
        #expect(Vectors.list("principalMustFail").count == 14)
        #expect(Vectors.list("accountIds").count == 4)
    }

    @Test(arguments: ICPVectorTests.requestIds)
    func requestId(_ id: String) throws {
        let v = try #require(Vectors.list("requestIds").first { $0["id"]?.stringValue == id })
        let content = try Vectors.map(try #require(v["content"]))
        #expect(HashableValue.hashOfMap(content) == (try Vectors.hex(v["requestId"])))
        for pair in v["pairs"]?.arrayValue ?? [] {
            let p = try #require(pair.arrayValue)
            let key = try #require(p[0].stringValue)
            #expect(SHA256.hash(Array(key.utf8)) == (try Vectors.hex(p[1])))
            #expect(try #require(content[key]).hash == (try Vectors.hex(p[2])))
        }
    }

    /// V-ICP-1 through the typed content (not only the generic map) and through CBOR and back.
    @Test func typedCallContent() throws {
        let content = ICPRequestContent(
            unchecked: .call, sender: .anonymous, ingressExpiry: 1_685_570_400_000_000_000, nonce: nil,
            canisterId: try Principal(bytes: [0, 0, 0, 0, 0, 0, 4, 0xd2]), methodName: "hello",
            arg: Array("DIDL\u{0}".utf8) + [0xfd, 0x2a], paths: nil)
        #expect(
            Hex.encode(content.requestId, prefix: false)
                == "1d1091364d6bb8a6c16b203ee75467d59ead468f523eb058880ae8ec80e2b101")
        let decoded = try ICPRequestContent(contentMap: content.contentMap)
        #expect(decoded == content)
        #expect(decoded.requestId == content.requestId)
    }

    /// The IcpKit bug: sorting by the first byte only. `H("sender")` and `H("canister_id")` share
    /// their first byte 0x0a; our order is independent of the input order.
    @Test func sortIsFullByteOrder() throws {
        let v = try #require(Vectors.list("requestIds").first)
        let content = try Vectors.map(try #require(v["content"]))
        let expected = try Vectors.hex(v["requestId"])
        let pairs = content.map { SHA256.hash(Array($0.key.utf8)) + $0.value.hash }
        for rotation in 0..<pairs.count {
            let rotated = Array(pairs[rotation...] + pairs[..<rotation])
            let sorted = rotated.sorted { $0.lexicographicallyPrecedes($1) }
            #expect(SHA256.hash(sorted.flatMap { $0 }) == expected)
        }
        // And a first-byte-only comparator would depend on input order for this content.
        let firstByteOnly: ([UInt8], [UInt8]) -> Bool = { $0[0] < $1[0] }
        let a = pairs.sorted(by: firstByteOnly)
        let b = pairs.reversed().sorted(by: firstByteOnly)
        #expect(a != b)
    }

    @Test func hashValues() throws {
        for v in Vectors.list("hashValues") {
            let value = try Vectors.hashable(try #require(v["value"]))
            #expect(value.hash == (try Vectors.base64(v["base64"])))
        }
        #expect(LEB128.unsigned(0) == [0])
        #expect(LEB128.unsigned(624_485) == [0xe5, 0x8e, 0x26])
        #expect(LEB128.signed(-123_456) == [0xc0, 0xbb, 0x78])
        #expect(LEB128.unsigned(UInt64.max).count == 10)
        for v in Vectors.list("sha224") {
            #expect(SHA224.hash(Array(try #require(v["input"]?.stringValue).utf8)) == (try Vectors.hex(v["hex"])))
        }
        for v in Vectors.list("crc32") {
            #expect(CRC32.bigEndian(Array(try #require(v["input"]?.stringValue).utf8)) == (try Vectors.hex(v["hex"])))
        }
    }

    @Test func principalTextBothWays() throws {
        for v in Vectors.list("principals") {
            let bytes = try Vectors.hex(v["hex"])
            let text = try #require(v["text"]?.stringValue)
            #expect(try Principal(bytes: bytes).text == text)
            #expect(try Principal(text: text).bytes == bytes)
        }
        for v in Vectors.list("principalDecodeOnly") {
            #expect(try Principal(text: try #require(v["text"]?.stringValue)).bytes == (try Vectors.hex(v["hex"])))
        }
        #expect(Principal.managementCanister.text == "aaaaa-aa")
        #expect(Principal.anonymous.text == "2vxsx-fae")
    }

    @Test(arguments: Vectors.list("principalMustFail").compactMap(\.stringValue))
    func principalMustFail(_ text: String) {
        #expect(throws: ICPCodecError(.invalidPrincipal, "")) { try Principal(text: text) }
    }

    @Test func principalLengthLimit() throws {
        #expect(throws: ICPCodecError(.invalidPrincipal, "")) { try Principal(bytes: [UInt8](repeating: 1, count: 30)) }
        // 30 bytes in text form: the encoding is well formed but the principal is too long.
        let text = Principal(unchecked: [UInt8](repeating: 1, count: 30)).text
        #expect(throws: ICPCodecError(.invalidPrincipal, "")) { try Principal(text: text) }
    }

    @Test func accountIdentifiers() throws {
        for v in Vectors.list("accountIds") {
            let principal = try Principal(text: try #require(v["principal"]?.stringValue))
            let expected = try #require(v["accountId"]?.stringValue)
            #expect(try principal.accountIdentifier().hex == expected)
            #expect(try AccountIdentifier(hex: expected).hex == expected)
        }
        var bad = try Vectors.hex(Vectors.list("accountIds").first?["accountId"])
        bad[31] ^= 1
        #expect(throws: ICPCodecError(.invalidAccount, "")) { try AccountIdentifier(bytes: bad) }
        #expect(throws: ICPCodecError(.invalidAccount, "")) {
            try Principal.anonymous.accountIdentifier(subaccount: [1])
        }
    }

    @Test func icrc1AccountText() throws {
        for v in Vectors.list("icrc1Accounts") {
            let owner = try Principal(text: try #require(v["owner"]?.stringValue))
            let sub: [UInt8]? = v["subaccount"]?.isNull == false ? try Vectors.hex(v["subaccount"]) : nil
            let text = try #require(v["text"]?.stringValue)
            let account = try ICRC1Account(owner: owner, subaccount: sub)
            #expect(account.text == text)
            #expect(try ICRC1Account(text: text) == account)
        }
        for text in Vectors.list("icrc1AccountMustFail").compactMap(\.stringValue) {
            #expect(throws: ICPCodecError.self) { try ICRC1Account(text: text) }
        }
        // All-zero subaccount is the default account: the short form.
        let owner = try Principal(text: "2vxsx-fae")
        #expect(try ICRC1Account(owner: owner, subaccount: [UInt8](repeating: 0, count: 32)).text == "2vxsx-fae")
    }

    /// V-ICP-7: keysmith's chain m/44'/223'/0'/0/i → key → DER → principal → account id.
    @Test func keysmithChain() throws {
        let k = try #require(Vectors.file["keysmith"])
        let mnemonic = try Mnemonic(phrase: try #require(k["mnemonic"]?.stringValue))
        for entry in k["keys"]?.arrayValue ?? [] {
            let index = try #require(entry["index"]?.integer(as: UInt32.self))
            let key = try IcpKeyPair(mnemonic: mnemonic, index: index)
            #expect(key.secretKey.unsafeExposedBytes() == (try Vectors.hex(entry["secret"])))
            let principal = Principal(selfAuthenticating: key.derPublicKey)
            #expect(principal.text == entry["principal"]?.stringValue)
            #expect(try principal.accountIdentifier().hex == entry["accountId"]?.stringValue)
            if entry["publicKey"] != nil {
                #expect(key.rawPublicKey == (try Vectors.hex(entry["publicKey"])))
                #expect(key.derPublicKey == IcpKeyPair.secp256k1DERPrefix + key.rawPublicKey)
                #expect(principal.bytes == (try Vectors.hex(entry["principalHex"])))
            }
        }
        #expect(try BIP32Path.icp(index: 7).description == "m/44'/223'/0'/0/7")
    }

    /// V-ICP-8: the signed envelope and its read_state, byte for byte.
    @Test func signedEnvelope() throws {
        let v = try #require(Vectors.file["signedEnvelope"])
        let key = try IcpKeyPair(secretKey: SecretBytes(try Vectors.hex(v["secret"])), algorithm: .secp256k1)
        let sender = Principal(selfAuthenticating: key.derPublicKey)
        let expiry = try #require(v["ingressExpiry"]?.stringValue.flatMap { UInt64($0) })
        let content = try ICPRequestContent(
            .call, sender: sender, canisterId: Principal(bytes: try Vectors.hex(v["canisterId"])),
            methodName: try #require(v["method"]?.stringValue), arg: try Vectors.hex(v["arg"]),
            ingressExpiry: expiry, now: expiry - 60_000_000_000)
        #expect(content.requestId == (try Vectors.hex(v["requestId"])))
        #expect(SHA256.hash(ICPEnvelope.domainSeparator + content.requestId) == (try Vectors.hex(v["digest"])))
        let envelope = try ICPEnvelope(signing: content, with: key)
        #expect(envelope.senderSignature == (try Vectors.hex(v["signature"])))
        #expect(envelope.encoded == (try Vectors.hex(v["envelope"])))
        #expect(envelope.encoded.count == 325)
        // Decoding verifies the signature and gives back the same envelope.
        #expect(try ICPEnvelope(cborBytes: envelope.encoded) == envelope)

        let readState = content.readStateForStatus(requestId: content.requestId)
        #expect(readState.requestId == (try Vectors.hex(v["readStateRequestId"])))
        let signedReadState = try ICPEnvelope(signing: readState, with: key)
        #expect(signedReadState.senderSignature == (try Vectors.hex(v["readStateSignature"])))
        #expect(try ICPEnvelope(cborBytes: signedReadState.encoded) == signedReadState)
    }

    /// V-ICP-4: the ICRC-49 example contentMap (agent-js output) decodes and gives its request id,
    /// which also appears in the example certificate's `request_status` subtree.
    @Test func icrc49ExampleContentMap() throws {
        let v = try #require(Vectors.file["icrc49Example"])
        let bytes = try Vectors.base64(v["contentMap"])
        let content = try ICPRequestContent(contentMap: bytes)
        #expect(content.requestType == .call)
        #expect(content.canisterId?.text == v["canisterId"]?.stringValue)
        #expect(content.sender.text == v["sender"]?.stringValue)
        #expect(content.methodName == v["method"]?.stringValue)
        #expect(content.arg == (try Vectors.base64(v["arg"])))
        #expect(content.nonce?.count == 16)
        let id = try Vectors.hex(v["requestId"])
        #expect(content.requestId == id)
        // Our re-encoding is byte-identical to agent-js's (same key order, shortest heads).
        #expect(content.contentMap == bytes)
        // The certificate decodes as CBOR and contains the request id as a label.
        let certificate = try CBORDecoder.decode(try Vectors.base64(v["certificate"]))
        #expect(containsBytes(certificate, id))
    }

    func containsBytes(_ v: CBORValue, _ needle: [UInt8]) -> Bool {
        switch v {
        case .bytes(let b): b == needle
        case .array(let items): items.contains { containsBytes($0, needle) }
        case .map(let entries): entries.contains { containsBytes($0.value, needle) }
        case .tag(_, let inner): containsBytes(inner, needle)
        default: false
        }
    }
}
