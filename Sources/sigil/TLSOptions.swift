import ArgumentParser

/// `--tls-cert`/`--tls-key` of `sigil serve` (an option group, so the TLS options live in one file).
/// Checked and merged with `SIGIL_TLS_CERT`/`SIGIL_TLS_KEY` and the config file by
/// `SigilConfiguration`; the context is made by `ServeSettings.makeTLSContext()`.
struct TLSOptions: ParsableArguments {
    @Option(
        name: .customLong("tls-cert"),
        help: ArgumentHelp("Serve both ports over HTTPS with this PEM certificate chain.", valueName: "pem"))
    var certificate: String?

    @Option(name: .customLong("tls-key"), help: ArgumentHelp("The PEM private key for --tls-cert.", valueName: "pem"))
    var key: String?
}
