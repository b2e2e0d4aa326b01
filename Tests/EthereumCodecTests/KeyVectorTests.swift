import Primitives
import SigningKeys
import Testing

@testable import EthereumCodec

/// Keys, addresses, Keccak-256 and EIP-55 (docs/reference/ethereum.md §4) against ethereum.json.
@Suite struct KeyVectorTests {
    @Test(arguments: Vectors.ids(kind: "hd_account"))
    func hdAccount(_ id: String) throws {
        let v = try Vectors.vector(id)
        let mnemonic = try Mnemonic(phrase: try #require(v["mnemonic"]?.stringValue))
        let path = try BIP32Path(try #require(v["path"]?.stringValue))
        let key = try EthereumKeyPair(mnemonic: mnemonic, path: path)
        #expect(key.seed?.unsafeExposedBytes() == (try Vectors.hex(v["private_key"])), "\(id)")
        #expect(key.uncompressedPublicKey == (try Vectors.hex(v["public_key_uncompressed"])))
        #expect(key.publicKey == (try Vectors.hex(v["public_key_compressed"])))
        #expect(key.address == v["address"]?.stringValue)
        #expect(try mnemonic.bip39Seed().unsafeExposedBytes() == Vectors.hex(v["bip39_seed"]))
        let index = try #require(path.components.last?.index)
        #expect(try EthereumKeyPair.devAccount(index: index).address == v["address"]?.stringValue)
        #expect(try BIP32Path.ethereum(index: index) == path)
    }

    @Test(arguments: Vectors.ids(kind: "hash"))
    func keccakIsNotSHA3(_ id: String) throws {
        let v = try Vectors.vector(id)
        let input = try Vectors.hex(v["input"])
        #expect(Keccak256.hash(input) == (try Vectors.hex(v["keccak256"])))
        #expect(SHA3_256.hash(input) == (try Vectors.hex(v["sha3_256_fips202_not_used_by_ethereum"])))
    }

    @Test(arguments: Vectors.ids(kind: "eip55"))
    func eip55(_ id: String) throws {
        let v = try Vectors.vector(id)
        let input = try #require(v["input"]?.stringValue)
        let checksummed = try #require(v["checksummed"]?.stringValue)
        if v["expect"]?.stringValue == "reject" {
            #expect(throws: EthereumCodecError(.badChecksum, "")) { try EthereumAddress(input) }
        } else {
            let address = try EthereumAddress(input)
            #expect(address.checksummed == checksummed)
            #expect(address.lowercased == checksummed.lowercased())
        }
        #expect(try EthereumAddress(checksummed).checksummed == checksummed)
    }

    @Test(arguments: [
        "0x", "0x123", "f39fd6e51aad88f6f4ce6ab8827279cfffb92266", "0Xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
        "0xf39fd6e51aad88f6f4ce6ab8827279cfffb9226g", "0xf39fd6e51aad88f6f4ce6ab8827279cfffb9226600",
    ])
    func malformedAddressesAreRefused(_ text: String) {
        #expect(throws: EthereumCodecError(.invalidAddress, "")) { try EthereumAddress(text) }
    }

    @Test(arguments: Vectors.ids(kind: "create_address"))
    func createAddress(_ id: String) throws {
        let v = try Vectors.vector(id)
        let sender = try EthereumAddress(try #require(v["sender"]?.stringValue))
        let nonce = try #require(v["nonce"]?.integer(as: UInt64.self))
        #expect(RLP.encode(.list([.bytes(sender.bytes), .uint(nonce)])) == (try Vectors.hex(v["rlp_sender_nonce"])))
        #expect(
            EthereumAddress.contractAddress(sender: sender, nonce: nonce).checksummed
                == v["contract_address"]?.stringValue)
    }

    @Test func signaturesAreLowSAndRecover() throws {
        let key = try EthereumKeyPair.devAccount(index: 0)
        for i in 0..<32 {
            let hash = Keccak256.hash([UInt8(i)])
            let sig = try key.signHash(hash)
            #expect(EthereumKeyPair.isLowS(Array(sig[32..<64])))
            #expect(try EthereumKeyPair.recoverAddress(signature: sig, hash: hash) == key.accountId)
        }
    }

    @Test func highSTwinIsRefusedUnlessAllowed() throws {
        let v = try Vectors.vector("personal-sign-acct0-ascii-high-s-twin")
        let of = try Vectors.vector(try #require(v["of"]?.stringValue))
        let sig = try Vectors.hex(v["signature"])
        let hash = try Vectors.hex(of["message_hash"])
        #expect(throws: KeyError(.invalidSignature, "")) {
            try EthereumKeyPair.recoverAddress(signature: sig, hash: hash)
        }
        let recovered = try EthereumKeyPair.recoverAddress(signature: sig, hash: hash, requireLowS: false)
        #expect(EthereumKeyPair.checksumAddress(recovered) == v["recovers_to"]?.stringValue)
        #expect(throws: EthereumCodecError(.invalidSignature, "")) { try EthereumSignature(bytes65: sig) }
    }

    @Test func secretsStayOutOfDescriptions() throws {
        let key = try EthereumKeyPair.devAccount(index: 0)
        let secretHex = Hex.encode(try #require(key.seed).unsafeExposedBytes(), prefix: false)
        #expect(!String(describing: key).contains(secretHex))
        #expect(!String(reflecting: key).contains(secretHex))
    }
}
