import Gateway
import Keystore
import Logging
import Primitives
import SignerCore
import SigningKeys
import StateStore
import Testing

/// Ethereum accounts of the real signing service stay out of polkadot-js (docs/reference/ethereum.md
/// §10.3): automatic mode grants every account a polkadot-js site may have, and that is never an
/// Ethereum one, so neither the `authorize.tab` result nor `accounts.list` (any type) names one.
@Suite struct EthereumAccountsPolkadotTests {
    static func gateway() async throws -> GatewayService {
        let pair = try EthereumKeyPair.devAccount(index: 0)
        let info = EthereumAccountInfo(
            address: pair.address, name: "E0", whenCreated: nil, isTesting: true, fileName: "")
        let alice = try KeyPair(uri: "//Alice", scheme: .sr25519)
        let signer = SigningService(
            accounts: [(TestAccounts.alice, alice)], store: try SQLiteStateStore.inMemory(),
            ethereum: EthereumKeyring(accounts: [info], pairs: [pair.address: pair]))
        #expect(signer.accounts().map(\.type) == ["sr25519", "ethereum"])
        return try await GatewayService(
            options: GatewayOptions(approvalMode: .automatic), signer: signer, metadata: InMemoryMetadataRegistry(),
            persistence: InMemoryAuthorizations([]), clock: TestClock(), serverID: "srv1",
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    @Test func anAutomaticPolkadotJsAuthorizationNeitherGrantsNorListsEthereumAccounts() async throws {
        let service = try await Self.gateway()
        let reply = try await service.send("pub(authorize.tab)", ["origin": "Dapp"])
        let logged = try await service.logged().last?.body
        let authorized = reply?.body ?? logged
        #expect(authorized == .response(["result": true, "authorizedAccounts": [.string(TestAccounts.alice.address)]]))
        for anyType in [false, true] {
            let list = try await service.send("pub(accounts.list)", ["anyType": .bool(anyType)], id: "l\(anyType)")
            guard case .response(let accounts)? = list?.body else {
                Issue.record("no list: \(String(describing: list))"); return
            }
            #expect(accounts.arrayValue?.compactMap { $0["type"]?.stringValue } == ["sr25519"], "anyType \(anyType)")
        }
        // Signing with the Ethereum address through polkadot-js is refused before any prompt.
        let sign = try await service.send(
            "pub(bytes.sign)", ["address": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", "data": "x"], id: "s1")
        #expect(sign?.body == .error("Unable to find keypair"))
    }
}
