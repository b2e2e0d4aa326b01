import Primitives
import SigningKeys
import Testing

@testable import EthereumCodec

/// personal_sign (EIP-191) and eth_signTypedData_v4 (EIP-712) against ethereum.json
/// (docs/reference/ethereum.md §6–§7).
@Suite struct MessageVectorTests {
    @Test(arguments: Vectors.ids(kind: "personal_sign"))
    func personalSign(_ id: String) throws {
        let v = try Vectors.vector(id)
        let param = try #require(v["request"]?["params"]?.arrayValue?.first?.stringValue)
        let message = try PersonalMessage.messageBytes(param: param)
        #expect(message == (try Vectors.hex(v["message_bytes"])))
        #expect(PersonalMessage.preimage(message) == (try Vectors.hex(v["eip191_preimage"])))
        #expect(PersonalMessage.hash(message) == (try Vectors.hex(v["message_hash"])))
        let key = try EthereumKeyPair.devAccount(index: 0)
        let signature = try PersonalMessage.sign(message, with: key)
        #expect(Hex.encode(signature) == v["signature"]?.stringValue, "\(id)")
        #expect(try PersonalMessage.recoverSigner(message, signature: signature).bytes == key.accountId)
        if let text = v["message_text"]?.stringValue {
            #expect(try PersonalMessage.messageBytes(param: text) == message)
        }
        if let other = v["signature_if_treated_as_text"]?.stringValue {
            #expect(Hex.encode(try PersonalMessage.sign(Array(param.utf8), with: key)) == other)
        }
    }

    @Test func oddHexIsRefused() {
        #expect(throws: EthereumCodecError(.invalidHex, "")) { try PersonalMessage.messageBytes(param: "0xabc") }
    }

    static var typedIds: [String] { Vectors.ids(kind: "eip712") }

    @Test(arguments: MessageVectorTests.typedIds)
    func typedData(_ id: String) throws {
        let v = try Vectors.vector(id)
        let json = try #require(v["typed_data"])
        let typed = try TypedData(json: json)
        // Also from the JSON string form that ethers sends.
        let fromText = try TypedData(json: .string(String(decoding: json.encoded(), as: UTF8.self)))
        #expect(try fromText.digest() == typed.digest())
        #expect(try typed.encodeType("EIP712Domain") == v["domain_type_string"]?.stringValue, "\(id)")
        #expect(try typed.typeHash("EIP712Domain") == Vectors.hex(v["domain_type_hash"]))
        #expect(try typed.domainSeparator() == Vectors.hex(v["domain_separator"]), "\(id)")
        for (name, e) in try #require(v["types_encoded"]?.objectValue) {
            #expect(try typed.encodeType(name) == e["encode_type"]?.stringValue, "\(id) \(name)")
            #expect(try typed.typeHash(name) == Vectors.hex(e["type_hash"]))
        }
        if let encoded = v["encode_data_primary"]?.stringValue {
            let expected = try Hex.decode(encoded, prefix: .required)
            #expect(
                try typed.typeHash(typed.primaryType) + typed.encodeData(typed.primaryType, typed.message) == expected,
                "\(id)")
        }
        if let h = v["hash_struct_message"]?.stringValue {
            let messageHash = try typed.messageHash()
            #expect(messageHash.map { Hex.encode($0) } == h, "\(id)")
        }
        #expect(Hex.encode(try typed.digest()) == v["digest"]?.stringValue, "\(id)")
        if let signature = v["signature"]?.stringValue {
            let key: EthereumKeyPair
            if let secret = v["signer_private_key"]?.stringValue {
                key = try EthereumKeyPair(seed: SecretBytes(Hex.decode(secret, prefix: .required)))
            } else {
                key = try EthereumKeyPair.devAccount(index: 0)
            }
            let sig = try EthereumSignature(bytes65: key.signHash(typed.digest())).messageSignature
            #expect(Hex.encode(sig) == signature, "\(id)")
        }
    }

    @Test func domainFieldOrderIsHonoured() throws {
        let v = try Vectors.vector("eip712-domain-field-order")
        let json: JSONValue = [
            "types": ["EIP712Domain": try #require(v["EIP712Domain_as_given"])],
            "primaryType": "EIP712Domain", "domain": try #require(v["domain"]), "message": [:],
        ]
        let typed = try TypedData(json: json)
        #expect(try typed.encodeType("EIP712Domain") == v["domain_type_string_as_given"]?.stringValue)
        #expect(Hex.encode(try typed.domainSeparator()) == v["domain_separator_as_given"]?.stringValue)
        #expect(try typed.messageHash() == nil)
        #expect(try typed.digest() == Keccak256.hash([0x19, 0x01] + typed.domainSeparator()))
    }

    @Test func emptyDomain() throws {
        let typed = try TypedData(json: [
            "types": ["EIP712Domain": []], "primaryType": "EIP712Domain", "domain": [:], "message": [:],
        ])
        #expect(
            Hex.encode(try typed.domainSeparator())
                == "0x6192106f129ce05c9075d319c1fa6ea9b3ae37cbd0c1ef92e2be7137bb07baa1")
    }

    @Test func permit2TypeHashes() throws {
        let v = try Vectors.vector("permit2-type-hashes")
        let strings = try #require(v["type_strings"]?.objectValue)
        let hashes = try #require(v["type_hashes"]?.objectValue)
        #expect(strings.count >= 4)
        for (name, s) in strings {
            let text = try #require(s.stringValue)
            #expect(Hex.encode(Keccak256.hash(Array(text.utf8))) == hashes[name]?.stringValue)
        }
    }

    static let badTyped: [(String, EthereumCodecError.Code)] = [
        (
            #"{"types":{"EIP712Domain":[],"A":[{"name":"b","type":"B"}]},"primaryType":"A","domain":{},"message":{}}"#,
            .unknownType
        ),
        (
            #"{"types":{"EIP712Domain":[],"A":[{"name":"a","type":"A"}]},"primaryType":"A","domain":{},"message":{}}"#,
            .cyclicType
        ),
        (
            #"{"types":{"EIP712Domain":[],"A":[{"name":"b","type":"B"}],"B":[{"name":"a","type":"A"}]},"primaryType":"A","domain":{},"message":{}}"#,
            .cyclicType
        ),
        (#"{"types":{"A":[]},"primaryType":"A","domain":{"name":"x"},"message":{}}"#, .unknownType),
        (#"{"types":{"EIP712Domain":[],"A":[]},"primaryType":"B","domain":{},"message":{}}"#, .unknownType),
        (
            #"{"types":{"EIP712Domain":[],"A":[{"name":"x","type":"uint7"}]},"primaryType":"A","domain":{},"message":{"x":1}}"#,
            .unknownType
        ),
        (
            #"{"types":{"EIP712Domain":[],"A":[{"name":"x","type":"uint8"}]},"primaryType":"A","domain":{},"message":{"x":256}}"#,
            .outOfRange
        ),
        (
            #"{"types":{"EIP712Domain":[],"A":[{"name":"x","type":"uint8"}]},"primaryType":"A","domain":{},"message":{"x":"-1"}}"#,
            .outOfRange
        ),
        (
            #"{"types":{"EIP712Domain":[],"A":[{"name":"x","type":"int8"}]},"primaryType":"A","domain":{},"message":{"x":-129}}"#,
            .outOfRange
        ),
        (
            #"{"types":{"EIP712Domain":[],"A":[{"name":"x","type":"uint8"}]},"primaryType":"A","domain":{},"message":{"x":1.5}}"#,
            .invalidValue
        ),
        (
            #"{"types":{"EIP712Domain":[],"A":[{"name":"x","type":"uint8"}]},"primaryType":"A","domain":{},"message":{}}"#,
            .missingField
        ),
        (
            #"{"types":{"EIP712Domain":[],"A":[{"name":"x","type":"address"}]},"primaryType":"A","domain":{},"message":{"x":"0x12"}}"#,
            .invalidValue
        ),
        (
            #"{"types":{"EIP712Domain":[],"A":[{"name":"x","type":"bytes4"}]},"primaryType":"A","domain":{},"message":{"x":"0x1234"}}"#,
            .invalidValue
        ),
        (
            #"{"types":{"EIP712Domain":[],"A":[{"name":"x","type":"bool"}]},"primaryType":"A","domain":{},"message":{"x":"true"}}"#,
            .invalidValue
        ),
        (
            #"{"types":{"EIP712Domain":[],"A":[{"name":"x","type":"string[2]"}]},"primaryType":"A","domain":{},"message":{"x":["a"]}}"#,
            .invalidValue
        ),
        (
            #"{"types":{"EIP712Domain":[],"A":[{"name":"x","type":"bytes"}]},"primaryType":"A","domain":{},"message":{"x":"hello"}}"#,
            .invalidValue
        ),
        (
            #"{"types":{"EIP712Domain":[],"A":[{"name":"x y","type":"bool"}]},"primaryType":"A","domain":{},"message":{}}"#,
            .wrongType
        ),
        (
            #"{"types":{"EIP712Domain":[],"A":[{"name":"n","type":"A[]"}]},"primaryType":"A","domain":{},"message":{"n":[{"n":[{"n":[{"n":[{"n":[{"n":[{"n":[{"n":[{"n":[{"n":[{"n":[{"n":[{"n":[{"n":[{"n":[{"n":[{"n":[{"n":[]}]}]}]}]}]}]}]}]}]}]}]}]}]}]}]}]}]}}"#,
            .tooDeep
        ),
        ("not json", .invalidJSON),
    ]

    @Test(arguments: MessageVectorTests.badTyped.indices)
    func badTypedDataIsRefused(_ i: Int) throws {
        let (text, code) = MessageVectorTests.badTyped[i]
        do {
            let typed = try TypedData(jsonText: Array(text.utf8))
            _ = try typed.digest()
            Issue.record("accepted \(text)")
        } catch let error as EthereumCodecError {
            #expect(error.code == code, "\(text)")
        }
    }

    @Test func recursionThroughArraysIsAllowed() throws {
        let text =
            #"{"types":{"EIP712Domain":[],"Node":[{"name":"kids","type":"Node[]"}]},"primaryType":"Node","domain":{},"message":{"kids":[{"kids":[]}]}}"#
        let typed = try TypedData(jsonText: Array(text.utf8))
        #expect(try typed.encodeType("Node") == "Node(Node[] kids)")
        #expect(try typed.digest().count == 32)
    }

    /// A ring of 250 types (`T_i.next: T_{i+1}[]`, allowed: only arrays close it) makes each type's
    /// string repeat every other type, half a megabyte each: refused as too large before anything is
    /// hashed (before: kept 256 such strings and re-hashed one per struct value, minutes of work).
    @Test func aRingOfTypesWhoseStringsExplodeIsRefused() throws {
        var types: [String: JSONValue] = ["EIP712Domain": []]
        for i in 0..<250 {
            types["T\(i)"] = [["name": "next", "type": .string("T\((i + 1) % 250)[]")]]
        }
        types["Leaf"] = [["name": "x", "type": "T0[]"]]
        let items = JSONValue.array(Array(repeating: ["x": []], count: 1000))
        types["Mail"] = [["name": "items", "type": "Leaf[]"]]
        let json: JSONValue = [
            "types": .object(JSONObject(types.map { ($0.key, $0.value) })), "primaryType": "Mail", "domain": [:],
            "message": ["items": items],
        ]
        do {
            _ = try TypedData(json: json)
            Issue.record("a ring of exploding type strings was accepted")
        } catch {
            #expect(error.code == .tooLarge, "\(error)")
        }
    }
}
