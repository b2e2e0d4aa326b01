import ArgumentParser

/// Options of `sigil serve`. Kept in one struct so later issues (`--dev`, tokens, …) add fields here
/// and `ServeCommand.makeServers` reads them.
struct ServeOptions: ParsableArguments {
    @Option(help: "Port for dapps (bridge script and API); 0 picks a free port.")
    var port: Int = 9715

    @Option(name: .customLong("ui-port"), help: "Port for the approval page; 0 picks a free port.")
    var uiPort: Int = 9716

    @Option(
        help: ArgumentHelp(
            "Numeric address to listen on instead of 127.0.0.1 and ::1 (e.g. 0.0.0.0 in a container).",
            discussion: "Anything but loopback lets other machines reach the gateway; a warning is logged."))
    var host: String?

    @Option(
        name: .customLong("public-dir"),
        help: ArgumentHelp(
            "Directory of files served to dapps (default: $SIGIL_PUBLIC_DIR, <exe>/../share/sigil/public, or the project's public/).",
            valueName: "path"))
    var publicDir: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    func validate() throws {
        for (name, value) in [("--port", port), ("--ui-port", uiPort)] where !(0...65535).contains(value) {
            throw ValidationError("\(name) must be between 0 and 65535")
        }
        if port != 0 && port == uiPort { throw ValidationError("--port and --ui-port must differ") }
        if let host, host.isEmpty { throw ValidationError("--host must not be empty") }
    }
}
