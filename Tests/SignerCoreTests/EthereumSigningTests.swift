import Foundation
import Keystore
import Primitives
import SigningKeys
import StateStore
import Testing

@testable import SignerCore

/// Ethereum accounts in the signing service (docs/reference/ethereum.md §10): listed with type
/// `ethereum` and the EIP-55 address as key and address, resolved from an address in any case,
/// never offered to polkadot-js dapps; `signEthereumHash` signs with the account's key and nothing else.
@Suite struct EthereumSigningTests {
    static let dev = [
        "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
        "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    ]

    /// Dev accounts 0 and 1 unlocked, 2 listed but locked; //Alice sr25519 beside them.
    static func service() throws -> SigningService {
        let pairs = try (0..<3).map { try EthereumKeyPair.devAccount(index: UInt32($0)) }
        let infos = pairs.enumerated().map { i, pair in
            EthereumAccountInfo(address: pair.address, name: "E\(i)", whenCreated: nil, isTesting: true, fileName: "")
        }
        let alice = try KeyPair(uri: "//Alice", scheme: .sr25519)
        let key = Hex.encode(alice.accountId)
        return SigningService(
            accounts: [
                (SignerAccount(key: key, address: key, name: "Alice", type: "sr25519", genesisHash: nil), alice)
            ],
            store: try SQLiteStateStore.inMemory(),
            ethereum: EthereumKeyring(
                accounts: infos, pairs: [pairs[0].address: pairs[0], pairs[1].address: pairs[1]]))
    }

    static func ethereumAccount(_ service: SigningService, _ address: String) throws -> SignerAccount {
        try #require(service.accounts().first { $0.type == "ethereum" && $0.key == address })
    }

    @Test func unlockedEthereumAccountsAreListedByTheirEIP55AddressAndNotOfferedToPolkadotJs() throws {
        let service = try Self.service()
        let ethereum = service.accounts().filter { $0.type == "ethereum" }
        #expect(ethereum.map(\.key) == Array(Self.dev.prefix(2)))
        #expect(ethereum.map(\.address) == Array(Self.dev.prefix(2)))
        #expect(ethereum.map(\.name) == ["E0", "E1"])
        #expect(ethereum.allSatisfy { !$0.isPolkadotAccount && $0.genesisHash == nil })
        #expect(service.accounts().filter { $0.isPolkadotAccount }.map { $0.name } == ["Alice"])
    }

    struct AddressCase: Sendable, CustomTestStringConvertible {
        let input: String
        let key: String?
        var testDescription: String { input.isEmpty ? "(empty)" : input }
    }

    static let addressCases: [AddressCase] = [
        AddressCase(input: dev[0], key: dev[0]),
        AddressCase(input: dev[0].lowercased(), key: dev[0]),
        AddressCase(input: "0x" + dev[1].dropFirst(2).uppercased(), key: dev[1]),
        AddressCase(input: "0X" + dev[1].dropFirst(2).lowercased(), key: dev[1]),
        // Resolving is about the address, not about holding its key: account 2 is locked.
        AddressCase(input: dev[2].lowercased(), key: dev[2]),
        AddressCase(input: String(dev[0].dropLast()), key: nil),
        AddressCase(input: dev[0] + "0", key: nil),
        AddressCase(input: "0xg39fd6e51aad88f6f4ce6ab8827279cfffb92266", key: nil),
        AddressCase(input: "f39fd6e51aad88f6f4ce6ab8827279cfffb92266", key: nil),
        AddressCase(input: "0x", key: nil),
        AddressCase(input: "", key: nil),
        // 32 bytes stay Substrate account ids.
        AddressCase(
            input: "0xD43593C715FDD31C61141ABD04A99FD6822C8558854CCDE39A5684E7A56DA27D",
            key: "0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d"),
    ]

    @Test(arguments: addressCases)
    func anEthereumAddressInAnyCaseResolvesToItsEIP55Key(_ c: AddressCase) throws {
        #expect(try Self.service().accountKey(forAddress: c.input) == c.key)
    }

    @Test(arguments: [0, 1])
    func signaturesRecoverToTheAccountAndAreLowS(_ index: Int) throws {
        let service = try Self.service()
        let account = try Self.ethereumAccount(service, Self.dev[index])
        for seed in 0..<8 {
            let hash = Keccak256.hash(Array("message \(seed)".utf8))
            let signature = try service.signEthereumHash(hash, account: account)
            #expect(signature.count == 65)
            #expect(EthereumKeyPair.isLowS(Array(signature[32..<64])))
            #expect(signature[64] <= 1)
            let recovered = try EthereumKeyPair.recoverAddress(signature: signature, hash: hash)
            #expect(EthereumKeyPair.checksumAddress(recovered) == Self.dev[index])
            // Deterministic (RFC 6979).
            #expect(try service.signEthereumHash(hash, account: account) == signature)
        }
    }

    /// Hardhat account 0 signing keccak256("hello"): the value eth-account 0.13.3 gives
    /// (`Account.unsafe_sign_hash`, r ‖ s ‖ v − 27), computed once and copied here.
    @Test func aKnownSignatureOfDevAccountZero() throws {
        let service = try Self.service()
        let hash = Keccak256.hash(Array("hello".utf8))
        #expect(Hex.encode(hash, prefix: false) == "1c8aff950685c2ed4bc3174f3472287b56d9517b9c948127319a09a7a36deac8")
        let signature = try service.signEthereumHash(hash, account: try Self.ethereumAccount(service, Self.dev[0]))
        #expect(
            Hex.encode(signature, prefix: false)
                == "73eebf81a611136662d65778960c853fdcaf6eca86793ed9cabc30f2195937af"
                + "78a07e601627da5b4cc80c0ab35f6894da19b4a01759d90c101d9c9dd1c6745d00")
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        let name: String
        let account: SignerAccount
        let hashLength: Int
        let code: SignerError.Code
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(
            name: "31-byte hash",
            account: SignerAccount(key: dev[0], address: dev[0], name: nil, type: "ethereum", genesisHash: nil),
            hashLength: 31, code: .badLength),
        Refusal(
            name: "33-byte hash",
            account: SignerAccount(key: dev[0], address: dev[0], name: nil, type: "ethereum", genesisHash: nil),
            hashLength: 33, code: .badLength),
        Refusal(
            name: "empty hash",
            account: SignerAccount(key: dev[0], address: dev[0], name: nil, type: "ethereum", genesisHash: nil),
            hashLength: 0, code: .badLength),
        Refusal(
            name: "locked account",
            account: SignerAccount(key: dev[2], address: dev[2], name: nil, type: "ethereum", genesisHash: nil),
            hashLength: 32, code: .unknownAccount),
        Refusal(
            name: "type sr25519 with an Ethereum key",
            account: SignerAccount(key: dev[0], address: dev[0], name: nil, type: "sr25519", genesisHash: nil),
            hashLength: 32, code: .unknownAccount),
        Refusal(
            name: "type ecdsa",
            account: SignerAccount(key: dev[0], address: dev[0], name: nil, type: "ecdsa", genesisHash: nil),
            hashLength: 32, code: .unknownAccount),
        Refusal(
            name: "an ICON account",
            account: SignerAccount(
                key: "hx902ecb51c109183ace539f247b4ea1347fbf23b5",
                address: "hx902ecb51c109183ace539f247b4ea1347fbf23b5",
                name: nil, type: "icon", genesisHash: nil),
            hashLength: 32, code: .unknownAccount),
        Refusal(
            name: "a Substrate key typed ethereum",
            account: SignerAccount(
                key: "0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d",
                address: "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY", name: nil, type: "ethereum",
                genesisHash: nil),
            hashLength: 32, code: .unknownAccount),
    ]

    @Test(arguments: refusals)
    func signEthereumHashRefuses(_ r: Refusal) throws {
        #expect(throws: SignerError(r.code, "")) {
            try Self.service().signEthereumHash([UInt8](repeating: 7, count: r.hashLength), account: r.account)
        }
    }

    @Test func signersWithoutEthereumKeysRefuse() throws {
        let empty = SigningService.empty(store: try SQLiteStateStore.inMemory())
        let account = SignerAccount(
            key: Self.dev[0], address: Self.dev[0], name: nil, type: "ethereum", genesisHash: nil)
        #expect(throws: SignerError(.unknownAccount, "")) {
            try empty.signEthereumHash([UInt8](repeating: 1, count: 32), account: account)
        }
        #expect(empty.accounts().isEmpty)
    }

    /// One rule for `.ethereum` key pairs: an Ethereum key is an Ethereum account, never a
    /// polkadot-js account, whichever way it reaches the service.
    @Test func aPolkadotJsEthereumPairIsNeverASubstrateAccount() throws {
        let pair = KeyPair.ethereum(try EthereumKeyPair.devAccount(index: 0))
        let key = Hex.encode(pair.accountId)
        let service = SigningService(
            accounts: [(SignerAccount(key: key, address: key, name: "pjs", type: "ethereum", genesisHash: nil), pair)],
            store: try SQLiteStateStore.inMemory())
        #expect(service.accounts().isEmpty)
    }

    @Test func polkadotTypesAreTheSubstrateSchemesOnly() {
        for (type, offered) in [
            ("sr25519", true), ("ed25519", true), ("ecdsa", true), ("ethereum", false), ("icon", false), ("", false),
        ] {
            let account = SignerAccount(key: "k", address: "a", name: nil, type: type, genesisHash: nil)
            #expect(account.isPolkadotAccount == offered, "\(type)")
        }
    }

    @Test func aKeystoreKeyringBringsItsEthereumAccounts() throws {
        let env = try DevAccounts.prepare(dataDirectory: nil)
        defer { env.removeIfTemporary() }
        let service = SigningService(keyring: env.keyring, store: try SQLiteStateStore.inMemory())
        let ethereum = service.accounts().filter { $0.type == "ethereum" }
        #expect(ethereum.map(\.key) == Self.dev)
        #expect(ethereum.allSatisfy { $0.name?.hasSuffix("(public test key)") == true })
        let hash = [UInt8](repeating: 0xab, count: 32)
        let signature = try service.signEthereumHash(hash, account: ethereum[2])
        #expect(
            EthereumKeyPair.checksumAddress(try EthereumKeyPair.recoverAddress(signature: signature, hash: hash))
                == Self.dev[2])
    }
}
