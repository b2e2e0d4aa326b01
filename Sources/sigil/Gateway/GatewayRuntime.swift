import Foundation
import Gateway
import GatewayHTTP
import Journal
import Keystore
import Logging
import SigilConfiguration
import SignerCore
import SigningKeys
import StateStore

/// Everything `sigil serve` wires together for the gateway: the core service, its account
/// directory and signer, the secrets, the static files and the real endpoints.
struct GatewayRuntime: Sendable {
    let service: GatewayService
    let accounts: any AccountDirectory
    let configuration: GatewayConfiguration
    let files: StaticFiles
    let endpoints: GatewayEndpoints
    /// Whether the authorizations live in a data directory another process may change (`sigil
    /// origins revoke`): the service then reconciles with the store every second; false for the
    /// throw-away dev state.
    let reconcilesAuthorizations: Bool
    /// The state store as the gateway reads it: settings and metadata versions from memory
    /// (StateStore `CachedStateStore`), refreshed with the authorizations every second.
    let state: CachedStateStore
    /// `serve.lock` of the data directory, held for the life of the process: a second `sigil serve`
    /// on the same directory refuses to start (Keystore `DataDirectory.lockForServing`).
    let serveLock: DirectoryLock?
    /// The `--dev` environment; its throw-away directory is deleted on shutdown.
    let development: DevAccounts.Environment?
    /// `/healthz` and `/metrics` (docs/observability.md).
    let telemetry: GatewayTelemetry
    /// The signing journal (docs/journal.md), nil with `--no-journal`.
    let journal: StateStoreJournal?
    /// The protocol adapters served as JSON-RPC routes on the one adapter route (``JSONRPCAdapter``):
    /// one line each where `make` lists them.
    let adapters: [any JSONRPCAdapter]

    static func make(settings: ServeSettings, logger: Logger) async throws -> GatewayRuntime {
        guard let directory = PublicDirectory.locate(explicit: settings.publicDirectory) else {
            throw ValidationErrorText("cannot find the public/ directory; pass --public-dir or set SIGIL_PUBLIC_DIR")
        }
        let files = try StaticFiles(directory: directory)
        logger.info(
            "loaded static files", metadata: ["directory": "\(directory)", "count": "\(files.resources.count)"])
        var tokens: [String: String] = [:]
        for name in settings.clients { tokens[Secret.token()] = name }
        var configuration = GatewayConfiguration(
            approvalToken: Secret.token(), relayToken: Secret.token(), clientTokens: tokens,
            extraAllowedHosts: Set(settings.allowedHosts.map { $0.lowercased() }))
        configuration.usesTLS = settings.tlsCertificate != nil
        // Checked by the configuration resolver (ServeConfiguration.publicURL), so none is dropped here.
        configuration.publicURLs = settings.publicURLs.compactMap(SiteOrigin.init)
        configuration.publicUIURLs = settings.publicUIURLs.compactMap(SiteOrigin.init)
        let store: SQLiteStateStore
        var serveLock: DirectoryLock?
        var journalKeyPath: String?
        if settings.dev && settings.dataDirectory == nil {
            store = try SQLiteStateStore.inMemory()
        } else {
            let path = try DataDirectory.resolve(
                explicit: settings.dataDirectory, environment: ProcessInfo.processInfo.environment)
            let directory = try DataDirectory.open(path)
            // One server per data directory: refuse before touching state.
            serveLock = try directory.lockForServing()
            store = try SQLiteStateStore(
                path: directory.databasePath,
                durability: SQLiteStateStore.Durability(rawValue: settings.journalSync) ?? .commit)
            logger.info("state", metadata: ["path": "\(directory.databasePath)"])
            journalKeyPath = directory.path + "/" + JournalKey.fileName
        }
        let state = try CachedStateStore(store)
        // The password that unlocked the accounts also opens (or creates) the journal key.
        var journalPassword: Passphrase?
        let accounts: SigningService
        var development: DevAccounts.Environment?
        var icpKeys: [IcpKeyPair] = []
        if settings.dev {
            icpKeys = [try IcpDevIdentity.key()]
            print("ICP: \(IcpDevIdentity.label).")
            // //Alice … //Ferdie sr25519 plus //Alice ed25519 and ecdsa, the ICON dev account and the
            // first Ethereum accounts of the public `test … junk` mnemonic, stored encrypted like any
            // account: in a throw-away directory, or in --data-dir when given.
            let environment = try DevAccounts.prepare(dataDirectory: settings.dataDirectory, logger: logger)
            development = environment
            print(
                "Ethereum: \(DevAccounts.ethereumCount) public test keys of the `test … junk` mnemonic "
                    + "(Hardhat/Anvil; never for real funds).")
            accounts = SigningService(keyring: environment.keyring, store: state)
            journalPassword = Passphrase(DevAccounts.password)
        } else {
            let path = try DataDirectory.resolve(
                explicit: settings.dataDirectory, environment: ProcessInfo.processInfo.environment)
            let keys = AccountStore(directory: try DataDirectory.open(path), logger: logger)
            if try keys.list().accounts.isEmpty && keys.listIcon().accounts.isEmpty
                && keys.listEthereum().accounts.isEmpty
            {
                // Nothing to unlock: no password asked; sites will see no accounts.
                accounts = SigningService.empty(store: state)
                print("No accounts yet: add one with `sigil accounts add` (or use --dev).")
            } else {
                let password =
                    try settings.passwordFile.map { try PasswordInput.fromFile($0) }
                    ?? PasswordInput.fromTerminal(prompt: "Password to unlock your accounts: ", confirm: false)
                journalPassword = password
                let keyring = try keys.unlockAll(password: password)
                accounts = SigningService(keyring: keyring, store: state)
                let count = accounts.accounts().count
                let stored = keyring.accounts.count + keyring.icon.accounts.count + keyring.ethereum.accounts.count
                print("Unlocked \(count) of \(stored) account(s).")
                if count == 0 { logger.warning("no account unlocked: sites will see no accounts") }
            }
            let identities = IcpIdentityStore(directory: try DataDirectory.open(path))
            let stored = try identities.list().identities.count
            if stored > 0 {
                let password =
                    try journalPassword ?? settings.passwordFile.map { try PasswordInput.fromFile($0) }
                    ?? PasswordInput.fromTerminal(prompt: "Password to unlock your ICP identities: ", confirm: false)
                journalPassword = journalPassword ?? password
                icpKeys = try identities.unlockAll(password: password)
                print("Unlocked \(icpKeys.count) of \(stored) ICP identit\(stored == 1 ? "y" : "ies").")
            }
        }
        let telemetry = GatewayTelemetry(
            version: Sigil.version,
            metricsToken: try settings.metricsTokenFile.map { try MetricsToken.read($0, logger: logger) },
            logger: Logger(label: "sigil.http"))
        var options = GatewayOptions(
            approvalMode: settings.autoApprove ? .automatic : .person,
            limits: ApprovalLimits(approvalTimeout: .seconds(settings.approvalTimeoutSeconds)),
            deniedHosts: Set(settings.deniedHosts.map { $0.lowercased() }))
        try options.configureIcon(settings)
        let journal =
            settings.journal
            ? try await Self.makeJournal(
                settings: settings, store: store, keyPath: journalKeyPath, password: journalPassword, logger: logger)
            : nil
        let service = try await GatewayService(
            options: options,
            signer: accounts, metadata: StateStoreMetadata(store: state),
            persistence: StateStoreAuthorizations(store: state), serverID: String(Secret.token().prefix(12)),
            logger: logger, metrics: telemetry.metrics, journal: journal,
            blindSigning: StateStoreBlindSigning(store: state), icrcScopes: StateStoreIcrcPermissions(store: state))
        // The JSON-RPC protocol adapters, one line each (each stands on the service's seam).
        let adapters: [any JSONRPCAdapter] = [
            try icrc(settings, service: service, keys: icpKeys),
            try await ethereum(settings, service: service, signer: accounts),
        ]
        return GatewayRuntime(
            service: service, accounts: accounts, configuration: configuration, files: files,
            endpoints: GatewayEndpoints(),
            reconcilesAuthorizations: serveLock != nil, state: state, serveLock: serveLock, development: development,
            telemetry: telemetry, journal: journal, adapters: adapters)
    }

    /// The Internet Computer signer (ICRC-25/27/29/49, docs/protocol.md ICP section; `--ic-url`).
    static func icrc(_ settings: ServeSettings, service: GatewayService, keys: [IcpKeyPair]) throws -> IcrcService {
        let network: IcReplicaClient?
        do {
            network = try settings.icURL.map { try IcReplicaClient(baseURL: $0) }
        } catch {
            throw ValidationErrorText("--ic-url must be an http:// or https:// URL")
        }
        return IcrcService(
            registry: try MethodRegistry.standard(), signer: IcpCallSigner(keys: keys), permissions: service,
            approver: service, network: network)
    }

    /// The Ethereum provider's wallet side (EIP-1193, docs/protocol.md Ethereum section; `--eth-rpc`).
    static func ethereum(_ settings: ServeSettings, service: GatewayService, signer: SigningService) async throws
        -> EthereumService
    {
        let ethereum = EthereumService(
            signer: signer, grants: service, approver: service,
            endpoints: try settings.ethRPC.map { url in
                do {
                    return try HTTPEthereumRPC(url: url)
                } catch {
                    throw ValidationErrorText("--eth-rpc must be an http:// or https:// URL")
                }
            })
        await ethereum.watchRevocations()
        return ethereum
    }

    /// The journal over the state database: its key opened (or created) with the accounts'
    /// password, introduced into the journal on first use, and a checkpoint of whatever the last
    /// run left unchekpointed (after a crash). Without a password (no accounts yet) the journal
    /// is kept but not checkpointed, which is logged. `--dev` without a data directory uses a
    /// fresh key (its journal lives in memory too).
    static func makeJournal(
        settings: ServeSettings, store: SQLiteStateStore, keyPath: String?, password: Passphrase?, logger: Logger
    ) async throws -> StateStoreJournal {
        var key: JournalKey?
        if let keyPath {
            if let password {
                do {
                    let (opened, created) = try JournalKey.openOrCreate(at: keyPath, password: password)
                    key = opened
                    if created { logger.info("journal key created", metadata: ["path": "\(keyPath)"]) }
                } catch {
                    logger.error(
                        "journal key not opened: no checkpoints are made",
                        metadata: ["path": "\(keyPath)", "reason": "\(error)"])
                }
            } else {
                logger.warning("no password to open the journal key: no checkpoints are made until accounts exist")
            }
        } else {
            key = try JournalKey.random()
        }
        let journal = StateStoreJournal(
            store: store, key: key, mirror: settings.journalMirror.map(JournalMirror.init(directory:)),
            keyFilePath: keyPath, shownLimit: settings.journalShownLimit, logger: Logger(label: "sigil.journal"))
        try await journal.introduceKey()
        do {
            try await journal.checkpoint()
        } catch {
            logger.error("journal checkpoint failed", metadata: ["reason": "\(error)"])
        }
        return journal
    }
}

/// A startup error with a message for the person running the command.
struct ValidationErrorText: Error, CustomStringConvertible {
    let description: String
    init(_ text: String) { description = text }
}

/// Random secrets (the system CSPRNG: getrandom on Linux).
enum Secret {
    /// 32 random bytes as 64 lower-case hex digits.
    static func token() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        return String((0..<64).map { _ in digits[Int(generator.next() % 16)] })
    }
}
