import Keystore
import MetadataHash
import PolkadotCodec
import Primitives
import ScaleCodec
import SigningKeys
import StateStore

/// The signing service: the keystore's unlocked accounts (or, for `sigil serve --dev`, the public
/// development accounts), the preparation of each request for a person, and the signature of exactly
/// what the person approved. Key pairs never leave this type; callers see ``SignerAccount`` values
/// and typed results.
///
/// Transactions are prepared with the metadata a person approved through `metadata.provide` for the
/// payload's genesis hash (``ChainMetadataCache``), never with metadata from the request itself.
/// Accounts are matched by account id, whatever SS58 prefix a dapp uses.
///
/// RFC-0078 (docs/reference/metadata-hash.md §10): before a transaction is queued, a site's
/// `metadataHash` (mode 1) is compared with the hash of the approved metadata (a difference is
/// refused), and a mode-0 payload that asks for the signed transaction gets mode 1 and Sigil's own
/// hash, unless the state-store setting `metadata-hash.add.<genesis>` is `off`. The person approves
/// the payload with its final mode and hash.
package final class SigningService: RequestSigner {
    private struct Entry: Sendable {
        let account: SignerAccount
        let pair: KeyPair
    }

    private let entries: [Entry]
    private let index: [String: Int]
    /// Each Polkadot account's own SS58 address → its key: the address a site was given comes back
    /// as it is, and is then resolved without decoding it again (its checksum is a BLAKE2b hash).
    private let keysByAddress: [String: String]
    private let store: any StateStore
    private let metadata: ChainMetadataCache
    /// ICON accounts and keys (`SigningService+Icon.swift`).
    let icon: IconKeyring
    /// Ethereum accounts and keys (`SigningService+Ethereum.swift`).
    let ethereum: EthereumKeyring

    /// The process's metadata-hash cache (roots per genesis hash and spec version), shared by the
    /// signing services built from a keyring or empty.
    package static let metadataHashes = MetadataHashCache()

    private init(
        entries: [Entry], store: any StateStore, metadataHashes: MetadataHashCache, icon: IconKeyring = .empty,
        ethereum: EthereumKeyring = .empty
    ) {
        // An Ethereum key is an Ethereum account (SigningService+Ethereum.swift), never a polkadot-js one.
        let entries = entries.filter { $0.pair.scheme != .ethereum }
        self.entries = entries
        self.icon = icon
        self.ethereum = ethereum
        var index: [String: Int] = [:]
        for (i, entry) in entries.enumerated() where index[entry.account.key] == nil { index[entry.account.key] = i }
        self.index = index
        var keysByAddress: [String: String] = [:]
        for entry in entries where keysByAddress[entry.account.address] == nil {
            keysByAddress[entry.account.address] = entry.account.key
        }
        self.keysByAddress = keysByAddress
        self.store = store
        metadata = ChainMetadataCache(store: store, hashes: metadataHashes)
    }

    /// The keystore's unlocked, non-hidden accounts.
    package convenience init(keyring: UnlockedKeyring, store: any StateStore) {
        let entries = keyring.unlockedAccounts.filter { !$0.isHidden }.compactMap { info -> Entry? in
            guard let pair = keyring.keyPair(for: info.address) else { return nil }
            return Entry(
                account: SignerAccount(
                    key: Hex.encode(info.accountId), address: info.address, name: info.name,
                    type: info.scheme.rawValue, genesisHash: info.genesisHash),
                pair: pair)
        }
        self.init(
            entries: entries, store: store, metadataHashes: Self.metadataHashes, icon: keyring.icon,
            ethereum: keyring.ethereum)
    }

    /// Given accounts and their key pairs (tests and tools that hold keys already; each account's
    /// `key` must be its pair's account id). Tests pass their own hash cache (default: a new one).
    /// Substrate pairs only: a `.ethereum` pair here is ignored (Ethereum keys come as `ethereum`).
    package convenience init(
        accounts: [(SignerAccount, KeyPair)], store: any StateStore,
        metadataHashes: MetadataHashCache = MetadataHashCache(), icon: IconKeyring = .empty,
        ethereum: EthereumKeyring = .empty
    ) {
        self.init(
            entries: accounts.map { Entry(account: $0.0, pair: $0.1) }, store: store, metadataHashes: metadataHashes,
            icon: icon, ethereum: ethereum)
    }

    /// No accounts (an empty keystore).
    package static func empty(store: any StateStore) -> SigningService {
        SigningService(entries: [], store: store, metadataHashes: metadataHashes)
    }

    // MARK: AccountDirectory

    package func accounts() -> [SignerAccount] { entries.map(\.account) + iconAccounts() + ethereumAccounts() }

    /// A Polkadot account by its index (a signing request asks once; `accounts()` builds every list).
    package func account(key: String) -> SignerAccount? {
        if let i = index[key] { return entries[i].account }
        return iconAccounts().first { $0.key == key } ?? ethereumAccounts().first { $0.key == key }
    }

    package func accountKey(forAddress address: String) -> String? {
        if let key = keysByAddress[address] { return key }
        if address.hasPrefix("hx") { return iconAccountKey(forAddress: address) }
        if address.hasPrefix("0x") || address.hasPrefix("0X") {
            // 20 bytes: an Ethereum address, any case → its EIP-55 key; 32 bytes: an account id.
            if let key = ethereumAccountKey(forAddress: address) { return key }
            guard let bytes = try? Hex.decode(address, prefix: .required), bytes.count == 32 else { return nil }
            return Hex.encode(bytes)
        }
        guard let decoded = try? SS58.decode(address) else { return nil }
        return Hex.encode(decoded.key)
    }

    private func pair(_ accountKey: String) throws -> KeyPair {
        guard let i = index[accountKey] else { throw SignerError(.unknownAccount, "no key for the account") }
        return entries[i].pair
    }

    // MARK: Preparation

    package func prepareExtrinsic(payload: JSONValue, account: SignerAccount) throws -> ExtrinsicSigningRequest {
        var parsed = try polkadotCodec { () throws(PolkadotCodecError) in try SignerPayload(value: payload) }
        let genesisHash = parsed.genesisHash
        let approved = metadata.approved(genesisHash: genesisHash)
        let source = approved?.source
        let status = try MetadataHashCheck.apply(
            to: &parsed,
            expected: MetadataHashCheck.expected(for: parsed, approved: approved, cache: metadata),
            chainHasExtension: source?.metadata.signedExtensionIdentifiers.contains(MetadataHashCheck.extensionName)
                ?? false,
            addsCheck: addsMetadataHash(genesisHash: genesisHash))
        let prepared = try PreparedPayload(
            payload: parsed, metadata: source?.metadata, provided: source?.properties, metadataHash: status)
        guard Hex.encode(prepared.payload.accountId) == account.key else {
            throw SignerError(.unknownAccount, "the payload's address is not the account")
        }
        if let accountGenesis = account.genesisHash,
            Hex.encode(prepared.summary.genesisHash) != accountGenesis.lowercased()
        {
            throw SignerError(.invalidInput, "the account is restricted to another chain")
        }
        // The account in the chain's own address format (the signer row's), with the person's name.
        let signer = prepared.summary.signer
        let rows =
            [SummaryRow("account", account.name.map { "\($0) (\(signer))" } ?? signer)]
            + prepared.summary.rows.map { row in
                // A decoded call keeps its lines (its structure); every other value is one line.
                row.label == "call" && prepared.summary.call != nil
                    ? SummaryRow(row.label, lines: row.value, warning: row.isWarning)
                    : SummaryRow(row.label, row.value, warning: row.isWarning)
            }
        return ExtrinsicSigningRequest(
            address: prepared.payload.address, accountKey: account.key, prepared: prepared, summary: rows)
    }

    /// Whether Sigil adds `CheckMetadataHash` to mode-0 payloads of this chain: on unless the
    /// setting ``MetadataHashCheck/settingKey(genesisHash:)`` is `off` (a store that cannot be read
    /// counts as on, the default).
    private func addsMetadataHash(genesisHash: [UInt8]) -> Bool {
        (try? store.setting(MetadataHashCheck.settingKey(genesisHash: genesisHash))) != "off"
    }

    /// A `pub(bytes.sign)` request: the dapp's `data` as polkadot-js reads it (`0x` hex, else UTF-8
    /// text), wrapped in `<Bytes>…</Bytes>` unless it already is; shown as text when printable.
    package func prepareMessage(data: String, address: String, account: SignerAccount) -> BytesSigningRequest {
        let raw = MessageWrapping.bytes(ofData: data)
        var summary = [SummaryRow("account", account.label)]
        if let text = MessageWrapping.displayText(raw) {
            summary.append(SummaryRow("message", text))
        } else {
            summary.append(SummaryRow("message (hex)", Hex.encode(raw), warning: true))
        }
        return BytesSigningRequest(
            address: address, accountKey: account.key, message: MessageWrapping.wrap(raw), summary: summary)
    }

    // MARK: Signing

    package func signExtrinsic(_ request: ExtrinsicSigningRequest) throws -> ExtrinsicSignature {
        let pair = try pair(request.accountKey)
        guard pair.accountId == request.prepared.payload.accountId else {
            throw SignerError(.unknownAccount, "the approved payload belongs to another account")
        }
        guard let index = pair.scheme.multiSignatureIndex, let scheme = MultiSignature.Scheme(rawValue: index) else {
            throw SignerError(.invalidInput, "\(pair.scheme) accounts have no MultiSignature variant")
        }
        let signature = try MultiSignature(
            scheme: scheme, signature: try pair.sign(request.prepared.signing.signedBytes))
        let transaction =
            request.wantsSignedTransaction
            ? try polkadotCodec { () throws(PolkadotCodecError) in
                try request.prepared.signing.signedTransaction(accountId: pair.accountId, signature: signature)
            } : nil
        return ExtrinsicSignature(signature: signature, signedTransaction: transaction)
    }

    package func signMessage(_ request: BytesSigningRequest) throws -> MessageSignature {
        MessageSignature(signature: try pair(request.accountKey).sign(request.message))
    }
}
