import ArgumentParser
import Dispatch
import Foundation
import Gateway
import GatewayHTTP
import Glibc
import Journal
import Keystore
import Logging
import SigilConfiguration
import SignerCore
import StateStore

/// `sigil serve`: serves the files of `public/` (the bridge script) to dapps on one port and the
/// approval page on another, until SIGINT/SIGTERM, then shuts down gracefully.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the gateway: the bridge script for dapps and the approval page, on 127.0.0.1.",
        discussion: """
            Dapps load http://127.0.0.1:<port>/bridge.js. The approval page lives on its own port, so \
            dapp traffic can never starve it and dapp pages are never same-origin with it.

            Stop with Ctrl-C (SIGINT) or SIGTERM: in-flight responses finish, then the process exits.

            Every option can also be set in the environment (SIGIL_<NAME>, e.g. SIGIL_UI_PORT) or in a \
            TOML file named by --config or SIGIL_CONFIG (key <name>, e.g. ui-port = 0); a flag beats the \
            environment, which beats the file. --print-config shows the result and where each value came \
            from. A bad value stops the command before anything is bound (exit status 78). \
            See docs/configuration.md.
            """)

    @OptionGroup var options: ServeOptions

    /// The servers `serve` runs, built from the options: the dapp port and the approval port.
    struct Servers {
        var dapp: HTTPServer
        var ui: HTTPServer
        var all: [HTTPServer] { [dapp, ui] }
    }

    func run() async throws {
        // Configuration first: a bad value exits (78, EX_CONFIG) before anything is opened or bound.
        let environment = ProcessInfo.processInfo.environment
        for warning in ServeConfiguration.resolver.warnings(environment: environment) { warn(warning) }
        let settings: ServeSettings
        let tls: TLSContext?
        do throws(ConfigurationError) {
            let resolved = try ServeConfiguration.resolver.resolve(
                commandLine: options.commandLineValues, environment: environment)
            if options.printConfig {
                print(resolved.rendered(), terminator: "")
                return
            }
            settings = ServeSettings(resolved)
            tls = try settings.makeTLSContext(resolved)
        } catch {
            for problem in error.all { note("error: \(problem)") }
            throw ExitCode(78)
        }
        let chosenLevel = settings.loggerLevel
        let format = settings.logFormatValue
        LoggingSystem.bootstrap { label in
            switch format {
            case .text:
                // StreamLogHandler's line, written without its per-line time-zone `stat` and stdio locking.
                var handler = TextLogHandler(label: label)
                handler.logLevel = chosenLevel
                return handler
            case .json:
                var handler = JSONLogHandler(label: label)
                handler.logLevel = chosenLevel
                return handler
            }
        }
        let logger = Logger(label: "sigil.serve")
        logger.info(
            "starting",
            metadata: [
                "version": "\(Sigil.version)", "pid": "\(getpid())", "dev": "\(settings.dev)",
                "auto_approve": "\(settings.autoApprove)", "log_format": "\(settings.logFormat)",
            ])
        raiseDescriptorLimit()

        let runtime = try await GatewayRuntime.make(settings: settings, logger: logger)
        let servers = try Self.makeServers(settings: settings, tls: tls, runtime: runtime, logger: logger)
        if settings.autoApprove {
            logger.warning(
                "--auto-approve: EVERY request is approved without asking, with every account. Testing only.")
            print("WARNING: --auto-approve is on: every connection and signature is approved automatically.")
        }
        for server in servers.all {
            try server.bind()
            runtime.telemetry.metrics.track(server)
        }
        // A declared public URL (--public-url, --public-ui-url) is how browsers reach the port: the
        // printed URLs, the userscript and the bookmarklet name it.
        let dappBase =
            runtime.configuration.publicURLs.first?.description
            ?? "\(settings.scheme)://\(Self.authority(servers.dapp))"
        let uiBase =
            runtime.configuration.publicUIURLs.first?.description
            ?? "\(settings.scheme)://\(Self.authority(servers.ui))"
        runtime.endpoints.set(dapp: dappBase, ui: uiBase)
        print("Sigil is serving:")
        for address in servers.dapp.listeningAddresses {
            print("  dapps:     \(settings.scheme)://\(address.urlAuthority)/bridge.js")
        }
        for address in servers.ui.listeningAddresses {
            print("  approvals: \(settings.scheme)://\(address.urlAuthority)/")
        }
        print("Bridge URL:   \(dappBase)/bridge.js")
        var secretLines = ["Approval URL: \(uiBase)/#token=\(runtime.configuration.approvalToken)"]
        for (token, name) in runtime.configuration.clientTokens.sorted(by: { $0.value < $1.value }) {
            secretLines.append("Client token for \(name): \(token)")
        }
        // A container's stdout is collected as its log (docker logs, log drivers, kubectl logs), where
        // a token would outlive the process and reach people who must not approve: --token-output
        // file keeps it in a 0600 file in the data directory instead (docs/deployment.md).
        var tokenFile: String?
        if settings.tokenOutput == "file" {
            let path = try TokenFile.write(lines: secretLines, dataDirectory: settings.dataDirectory)
            tokenFile = path
            print("Approval URL: written to \(path) (mode 0600; it holds the approval token)")
            if !runtime.configuration.clientTokens.isEmpty { print("Client tokens: written to \(path)") }
        } else {
            for line in secretLines { print(line) }
        }
        fflush(nil)  // all output streams (stdout is not concurrency-safe to name)
        for server in servers.all { server.startAccepting() }
        logger.info(
            "listening",
            metadata: [
                "version": "\(Sigil.version)", "dapp": "\(dappBase)", "ui": "\(uiBase)",
                "addresses": .array(
                    servers.all.flatMap { server in
                        server.listeningAddresses.map { .string("\(server.configuration.name)=\($0)") }
                    }),
                "tls": "\(settings.tlsCertificate != nil)", "metrics_token": "\(settings.metricsTokenFile != nil)",
            ])

        let journalTicker = runtime.journal.map { Self.journalTicker($0, settings: settings, logger: logger) }
        let ticker = Task {
            var reconcileFailing = false
            var syncFailures = 0
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                await runtime.service.tick()
                // `--journal-sync periodic`: a WAL sync that failed (it is retried) is said once per new failure.
                if let store = runtime.state.base as? SQLiteStateStore, store.periodicSyncCounts.failures > syncFailures
                {
                    syncFailures = store.periodicSyncCounts.failures
                    logger.error(
                        "state database not synced to disk; retrying",
                        metadata: [
                            "failures": "\(syncFailures)",
                            "reason": "\(store.periodicSyncFailure.map { "\($0)" } ?? "")",
                        ])
                }
                guard runtime.reconcilesAuthorizations else { continue }
                // Changes by other processes (`sigil origins revoke`), newer than memory only.
                do {
                    try await runtime.state.refresh()
                    try await runtime.service.reconcile()
                    if reconcileFailing { logger.info("authorizations readable again") }
                    reconcileFailing = false
                } catch {
                    if !reconcileFailing {
                        logger.warning("cannot read stored authorizations", metadata: ["reason": "\(error)"])
                    }
                    reconcileFailing = true
                }
            }
        }
        let terminal: Task<Void, Never>? =
            settings.approvalFrontEnd == .terminal
            ? Task { await TerminalApprover(service: runtime.service, directory: runtime.accounts).run() } : nil

        let signal = await TerminationSignal.wait()
        logger.info("shutting down", metadata: ["signal": "\(signal)"])
        ticker.cancel()
        journalTicker?.cancel()
        terminal?.cancel()
        // Held long-polls answer now rather than keep their connections through the grace period.
        await runtime.service.endEventStreams()
        for server in servers.all { await server.shutdown() }
        // The last checkpoint covers every entry of this run (no request is answered any more).
        if let journal = runtime.journal {
            do {
                try await journal.checkpoint()
            } catch {
                logger.error("journal checkpoint at shutdown failed", metadata: ["reason": "\(error)"])
            }
        }
        // With `--journal-sync periodic`, what the last 100 ms committed is on disk before the exit.
        if let store = runtime.state.base as? SQLiteStateStore {
            do {
                try store.syncToDisk()
            } catch {
                logger.error("state sync at shutdown failed", metadata: ["reason": "\(error)"])
            }
        }
        // The tokens die with the process; so does their file.
        if let tokenFile { TokenFile.remove(tokenFile) }
        logger.info("stopped", metadata: ["uptime_s": "\(Int(runtime.telemetry.uptimeSeconds))"])
        runtime.development?.removeIfTemporary()
        runtime.serveLock?.unlock()
    }

    /// The journal's periodic work: a full verification at start and every 15 minutes (its result
    /// feeds the approval page's badge), a checkpoint every `journal-checkpoint-interval` seconds
    /// when entries were added.
    static func journalTicker(_ journal: StateStoreJournal, settings: ServeSettings, logger: Logger) -> Task<
        Void, Never
    > {
        Task {
            let interval = Duration.seconds(settings.journalCheckpointIntervalSeconds)
            let verifyEvery = Duration.seconds(15 * 60)
            var sinceVerify = Duration.zero
            do {
                let result = try await journal.verify()
                logger.info(
                    "journal verified",
                    metadata: ["entries": "\(result.entries)", "ok": "\(result.isValid)"])
            } catch {
                logger.error("journal verification failed", metadata: ["reason": "\(error)"])
            }
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                if Task.isCancelled { return }
                do {
                    try await journal.checkpoint()
                } catch {
                    logger.error("journal checkpoint failed", metadata: ["reason": "\(error)"])
                }
                sinceVerify += interval
                if sinceVerify >= verifyEvery {
                    sinceVerify = .zero
                    _ = try? await journal.verify()
                }
            }
        }
    }

    /// `127.0.0.1:PORT` of the first listening address (the real port when 0 was asked). A wildcard
    /// bind (`--host 0.0.0.0` or `::`, as in the container) is reached here through loopback: the
    /// printed URLs then name 127.0.0.1, which the `Host` gate accepts (a browser refuses 0.0.0.0).
    static func authority(_ server: HTTPServer) -> String {
        let address =
            server.listeningAddresses.first(where: { $0.family == .ipv4 }) ?? server.listeningAddresses.first
        guard let address else { return "127.0.0.1:\(server.port)" }
        switch address.host {
        case "0.0.0.0": return "127.0.0.1:\(address.port)"
        case "::": return "[::1]:\(address.port)"
        default: return address.urlAuthority
        }
    }

    /// Builds (does not bind) the dapp server and the approval-page server.
    static func makeServers(
        settings: ServeSettings, tls: TLSContext?, runtime: GatewayRuntime, logger: Logger
    ) throws -> Servers {
        var dappConfiguration = HTTPServerConfiguration()
        dappConfiguration.name = "dapp"
        dappConfiguration.port = settings.port
        // metadata.provide carries the full rawMetadata (about 1.1 MB of hex for Asset Hub).
        dappConfiguration.limits.maxBodyBytes = runtime.configuration.maxRequestBodyBytes
        var uiConfiguration = HTTPServerConfiguration()
        uiConfiguration.name = "ui"
        uiConfiguration.port = settings.uiPort
        dappConfiguration.tls = tls
        uiConfiguration.tls = tls
        uiConfiguration.limits.maxBodyBytes = runtime.configuration.maxSmallBodyBytes
        let telemetry = runtime.telemetry
        dappConfiguration.observer = { telemetry.observe($0) }
        uiConfiguration.observer = { telemetry.observe($0) }
        if let host = settings.host {
            dappConfiguration.bindAddress = .host(host)
            uiConfiguration.bindAddress = .host(host)
        }
        let dapp = DappHandler(
            service: runtime.service, configuration: runtime.configuration, files: runtime.files, logger: logger,
            adapters: runtime.adapters)
        let ui = ApprovalPortal(
            service: runtime.service, directory: runtime.accounts, configuration: runtime.configuration,
            endpoints: runtime.endpoints, files: runtime.files, logger: logger, telemetry: runtime.telemetry)
        return Servers(
            dapp: HTTPServer(configuration: dappConfiguration, handler: dapp, logger: logger),
            ui: HTTPServer(configuration: uiConfiguration, handler: ui, logger: logger))
    }

    /// Raises the soft open-file limit to the hard limit (connections are file descriptors).
    private func raiseDescriptorLimit() {
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 && limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
    }
}
