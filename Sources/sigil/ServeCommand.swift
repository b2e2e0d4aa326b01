import ArgumentParser
import Dispatch
import GatewayHTTP
import Glibc
import Logging

/// `sigil serve`: serves the files of `public/` (the bridge script) to dapps on one port and the
/// approval page on another, until SIGINT/SIGTERM, then shuts down gracefully.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the gateway: the bridge script for dapps and the approval page, on 127.0.0.1.",
        discussion: """
            Dapps load http://127.0.0.1:<port>/bridge.js. The approval page lives on its own port so
            dapp traffic can never starve it and dapp pages cannot reach it as same-origin.
            Stop with Ctrl-C (SIGINT) or SIGTERM: in-flight responses finish, then the process exits.
            """)

    @OptionGroup var options: ServeOptions

    /// The servers `serve` runs, built from the options; later issues add routes and gates here.
    struct Servers {
        var dapp: HTTPServer
        var ui: HTTPServer
        var all: [HTTPServer] { [dapp, ui] }
    }

    func run() async throws {
        var level = Logger.Level.info
        if let parsed = Logger.Level(rawValue: options.logLevel.lowercased()) { level = parsed }
        let chosenLevel = level
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = chosenLevel
            return handler
        }
        let logger = Logger(label: "sigil.serve")
        raiseDescriptorLimit()

        let servers = try Self.makeServers(options: options, logger: logger)
        if let host = options.host {
            logger.warning("binding \(host) as asked by --host; make sure this is what you want")
        }
        for server in servers.all { try server.bind() }
        print("Sigil is serving:")
        for address in servers.dapp.listeningAddresses {
            print("  dapps:     http://\(address.urlAuthority)/bridge.js")
        }
        for address in servers.ui.listeningAddresses {
            print("  approvals: http://\(address.urlAuthority)/")
        }
        fflush(nil)  // all output streams: the URLs must be visible before the first request
        for server in servers.all { server.startAccepting() }

        let signal = await TerminationSignal.wait()
        logger.info("shutting down", metadata: ["signal": "\(signal)"])
        for server in servers.all { await server.shutdown() }
    }

    /// Builds (does not bind) the dapp server and the approval-page server.
    static func makeServers(options: ServeOptions, logger: Logger) throws -> Servers {
        guard let directory = PublicDirectory.locate(explicit: options.publicDir) else {
            throw ValidationError(
                "cannot find the public/ directory; pass --public-dir or set SIGIL_PUBLIC_DIR")
        }
        let files = try StaticFiles(directory: directory)
        logger.info(
            "loaded static files", metadata: ["directory": "\(directory)", "count": "\(files.resources.count)"])

        var dappConfiguration = HTTPServerConfiguration()
        dappConfiguration.name = "dapp"
        dappConfiguration.port = options.port
        var uiConfiguration = HTTPServerConfiguration()
        uiConfiguration.name = "ui"
        uiConfiguration.port = options.uiPort
        if let host = options.host {
            dappConfiguration.bindAddress = .host(host)
            uiConfiguration.bindAddress = .host(host)
        }
        return Servers(
            dapp: HTTPServer(configuration: dappConfiguration, handler: dappRouter(files: files), logger: logger),
            ui: HTTPServer(configuration: uiConfiguration, handler: approvalRouter(), logger: logger))
    }

    /// The dapp port: static files (the bridge script may be loaded by any page, so it carries
    /// `Cross-Origin-Resource-Policy: cross-origin`; http-server.md §6 item 3).
    static func dappRouter(files: StaticFiles) -> Router {
        var router = Router()
        router.get("/*") { request in
            files.response(for: request, headers: ["Cross-Origin-Resource-Policy": "cross-origin"])
                ?? .status(.notFound)
        }
        return router
    }

    /// The approval port. The approval interface is a later issue; until then this page says so and
    /// offers nothing to approve.
    static func approvalRouter() -> Router {
        var router = Router()
        let page = Array(
            """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Sigil</title></head>
            <body><h1>Sigil is running</h1>
            <p>The approval interface is not part of this build yet, so nothing can be approved here.</p>
            </body></html>

            """.utf8)
        let headers: HTTPHeaders = [
            "Content-Type": "text/html; charset=utf-8",
            "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
            "X-Frame-Options": "DENY",
            "X-Content-Type-Options": "nosniff",
            "Cross-Origin-Opener-Policy": "same-origin",
            "Referrer-Policy": "no-referrer",
            "Cache-Control": "no-store",
        ]
        router.get("/") { _ in HTTPResponse(status: .ok, headers: headers, body: page) }
        return router
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
