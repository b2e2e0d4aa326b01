import Gateway
import ScaleCodec
import SignerCore
import SigningKeys

/// The well-known development accounts (`//Alice` … `//Ferdie`, sr25519, from the public dev
/// phrase) for `sigil serve --dev`: the account directory and signer of the gateway. Their secrets
/// are public by design; never use them for value.
///
/// Signing goes through ``InterimSigningPayload`` until the payload stream's builder lands.
final class DevAccounts: AccountDirectory, RequestSigner {
    private struct Entry: Sendable {
        let account: GatewayAccount
        let pair: KeyPair
    }

    private let entries: [Entry]

    static let names = ["Alice", "Bob", "Charlie", "Dave", "Eve", "Ferdie"]

    init() throws {
        entries = try Self.names.map { name in
            let pair = try KeyPair(uri: "//\(name)", scheme: .sr25519)
            let address = try SS58.encode(pair.publicKey, prefix: SS58.genericSubstrate)
            return Entry(
                account: GatewayAccount(
                    key: ScaleCodec.Hex.encode(pair.publicKey), address: address, name: name, type: "sr25519",
                    genesisHash: nil),
                pair: pair)
        }
    }

    func accounts() async -> [GatewayAccount] { entries.map(\.account) }

    func accountKey(forAddress address: String) -> String? {
        if let decoded = try? SS58.decode(address) { return ScaleCodec.Hex.encode(decoded.key) }
        if address.utf8.count == 66, let bytes = try? ScaleCodec.Hex.decode(address) {
            return ScaleCodec.Hex.encode(bytes)
        }
        return nil
    }

    private func pair(_ account: GatewayAccount) throws -> KeyPair {
        guard let entry = entries.first(where: { $0.account.key == account.key }) else {
            throw SignerError(.unknownAccount, "no key for the account")
        }
        return entry.pair
    }

    func describeExtrinsic(payload: WireJSON, account: GatewayAccount) async throws -> [SummaryRow] {
        let built = try InterimSigningPayload(payload)
        if let genesis = payload["genesisHash"]?.stringValue, let accountGenesis = account.genesisHash,
            genesis.lowercased() != accountGenesis.lowercased()
        {
            throw SignerError(.invalidInput, "the account is restricted to another chain")
        }
        return PayloadSummary.rows(payload: payload, built: built)
    }

    func signExtrinsic(payload: WireJSON, account: GatewayAccount) async throws -> (
        signature: String, signedTransaction: String?
    ) {
        let pair = try pair(account)
        let built = try InterimSigningPayload(payload)
        let signature = try pair.signMultiSignature(built.signingBytes)
        let transaction = try built.signedTransaction(accountId: pair.accountId, multiSignature: signature)
        return (ScaleCodec.Hex.encode(signature), ScaleCodec.Hex.encode(transaction))
    }

    func signMessage(_ message: [UInt8], account: GatewayAccount) async throws -> String {
        ScaleCodec.Hex.encode(try pair(account).sign(message))
    }
}
