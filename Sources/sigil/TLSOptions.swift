import ArgumentParser
import SigilConfiguration

/// `--tls-cert`/`--tls-key` of `sigil serve` (an option group, so the TLS options live in one file).
/// Checked and merged with `SIGIL_TLS_CERT`/`SIGIL_TLS_KEY` and the config file by
/// `SigilConfiguration`; the context is made by `ServeSettings.makeTLSContext()`.
struct TLSOptions: ParsableArguments {
    @Option(
        name: .customLong("tls-cert"),
        help: ArgumentHelp(ServeConfiguration.help("tls-cert"), valueName: "pem"))
    var certificate: String?

    @Option(name: .customLong("tls-key"), help: ArgumentHelp(ServeConfiguration.help("tls-key"), valueName: "pem"))
    var key: String?
}
