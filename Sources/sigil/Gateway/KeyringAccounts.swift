import Gateway
import Keystore
import Primitives
import ScaleCodec
import SignerCore
import SigningKeys
import Synchronization

/// The gateway's account directory and signer over the keystore's accounts unlocked at start (for
/// `sigil serve --dev`, Keystore's `DevAccounts`: public secrets, never for value). Accounts are matched by account id, whatever SS58
/// prefix a dapp uses. Key pairs never leave this type (the `Gateway` module only sees
/// `GatewayAccount`).
///
/// Transactions go through `SignerCore.PreparedPayload` (validation, the exact signing bytes,
/// the summary), decoded with the metadata a person approved through `metadata.provide` when it is
/// stored for the payload's genesis hash — never with metadata from the request itself.
final class KeyringAccounts: AccountDirectory, RequestSigner {
    private struct Entry: Sendable {
        let account: GatewayAccount
        let pair: KeyPair
    }

    private let entries: [Entry]
    private let metadata: StoredMetadataLookup

    private init(entries: [Entry], store: any StateStore) {
        self.entries = entries
        metadata = StoredMetadataLookup(store: store)
    }

    /// No accounts (an empty keystore).
    static func none(store: any StateStore) -> KeyringAccounts { KeyringAccounts(entries: [], store: store) }

    /// The keystore's unlocked, non-hidden accounts.
    static func keystore(_ keyring: UnlockedKeyring, store: any StateStore) -> KeyringAccounts {
        let entries = keyring.unlockedAccounts.filter { !$0.isHidden }.compactMap { info -> Entry? in
            guard let pair = keyring.keyPair(for: info.address) else { return nil }
            return Entry(
                account: GatewayAccount(
                    key: Hex.encode(info.accountId), address: info.address, name: info.name,
                    type: info.scheme.rawValue, genesisHash: info.genesisHash),
                pair: pair)
        }
        return KeyringAccounts(entries: entries, store: store)
    }

    func accounts() async -> [GatewayAccount] { entries.map(\.account) }

    func accountKey(forAddress address: String) -> String? {
        if let decoded = try? SS58.decode(address) { return Hex.encode(decoded.key) }
        // 0x-hex account ids: 32 bytes, or 20 for Ethereum-style accounts.
        if address.utf8.count == 66 || address.utf8.count == 42, let bytes = try? Hex.decode(address, prefix: .required)
        {
            return Hex.encode(bytes)
        }
        return nil
    }

    private func pair(_ account: GatewayAccount) throws -> KeyPair {
        guard let entry = entries.first(where: { $0.account.key == account.key }) else {
            throw SignerError(.unknownAccount, "no key for the account")
        }
        return entry.pair
    }

    /// Payloads prepared when a request was described, reused when it is signed (the same JSON
    /// bytes give the same result: preparation is deterministic for given stored metadata).
    private let prepared = Mutex<[(json: [UInt8], spec: UInt32?, value: PreparedPayload)]>([])

    private func prepare(_ payload: JSONValue) throws -> PreparedPayload {
        let json = payload.encoded()
        let source = payload["genesisHash"]?.stringValue.flatMap { metadata.source(genesisHash: $0) }
        let spec = source.flatMap { metadata.specVersion(of: $0) }
        if let hit = prepared.withLock({ $0.first { $0.json == json && $0.spec == spec }?.value }) { return hit }
        let value = try PreparedPayload(json: json, metadata: source?.metadata, provided: source?.properties)
        prepared.withLock {
            $0.append((json, spec, value))
            if $0.count > 64 { $0.removeFirst($0.count - 64) }
        }
        return value
    }

    func describeExtrinsic(payload: JSONValue, account: GatewayAccount) async throws -> [SummaryRow] {
        let prepared = try prepare(payload)
        if let accountGenesis = account.genesisHash,
            Hex.encode(prepared.summary.genesisHash) != accountGenesis.lowercased()
        {
            throw SignerError(.invalidInput, "the account is restricted to another chain")
        }
        return prepared.summary.rows.map { SummaryRow($0.label, $0.value, warning: $0.isWarning) }
    }

    func signExtrinsic(payload: JSONValue, account: GatewayAccount) async throws -> (
        signature: String, signedTransaction: String?
    ) {
        let pair = try pair(account)
        let prepared = try prepare(payload)
        let bytes = try pair.signMultiSignature(prepared.signing.signedBytes)
        guard let scheme = MultiSignature.Scheme(rawValue: bytes.first ?? 0xFF) else {
            throw SignerError(.invalidInput, "no MultiSignature variant")
        }
        let signature = try MultiSignature(scheme: scheme, signature: Array(bytes.dropFirst()))
        let transaction = try? prepared.signing.signedTransaction(accountId: pair.accountId, signature: signature)
        return (Hex.encode(bytes), transaction.map { Hex.encode($0) })
    }

    func signMessage(_ message: [UInt8], account: GatewayAccount) async throws -> String {
        Hex.encode(try pair(account).sign(message))
    }
}

/// Decoded stored metadata per genesis hash, cached by spec version (decoding a runtime's metadata
/// takes milliseconds; signing requests must not pay that each time).
final class StoredMetadataLookup: Sendable {
    private let store: any StateStore
    private let cache = Mutex<[String: (spec: UInt32, source: MetadataSource)]>([:])

    init(store: any StateStore) { self.store = store }

    /// The spec version a cached source was decoded for.
    func specVersion(of source: MetadataSource) -> UInt32? {
        cache.withLock { $0.values.first { $0.source.genesisHash == source.genesisHash }?.spec }
    }

    func source(genesisHash: String) -> MetadataSource? {
        let key = genesisHash.lowercased()
        guard let stored = try? store.metadata(genesisHash: key) else { return nil }
        if let hit = cache.withLock({ $0[key] }), hit.spec == stored.specVersion { return hit.source }
        var properties = ChainProperties(name: stored.chain.isEmpty ? nil : stored.chain, ss58Prefix: stored.ss58Format)
        if let symbol = stored.tokenSymbol, let decimals = stored.tokenDecimals {
            properties.token = TokenFormat(decimals: Int(decimals), symbol: symbol)
        }
        let genesis = try? Hex.decode(key, prefix: .required)
        var source: MetadataSource?
        if !stored.metadata.isEmpty {
            source = try? MetadataSource(
                rawMetadata: Hex.encode(stored.metadata), properties: properties, genesisHash: genesis)
        } else if let extra = stored.extraJSON, let def = try? JSONValue.parse(Array(extra.utf8)),
            let calls = def["metaCalls"]?.stringValue
        {
            source = try? MetadataSource(metaCalls: calls, properties: properties, genesisHash: genesis)
        }
        guard let source else { return nil }
        cache.withLock { $0[key] = (stored.specVersion, source) }
        return source
    }
}
