import ArgumentParser
import GatewayHTTP

/// `--tls-cert`/`--tls-key` of `sigil serve` (an option group, so the TLS options live in one file).
struct TLSOptions: ParsableArguments {
    @Option(
        name: .customLong("tls-cert"),
        help: ArgumentHelp("Serve both ports over HTTPS with this PEM certificate chain.", valueName: "pem"))
    var certificate: String?

    @Option(name: .customLong("tls-key"), help: ArgumentHelp("The PEM private key for --tls-cert.", valueName: "pem"))
    var key: String?

    func validate() throws {
        if (certificate == nil) != (key == nil) { throw ValidationError("--tls-cert and --tls-key go together") }
    }

    /// The TLS context for both ports, or nil to serve plain HTTP. Errors name the bad file
    /// (`HTTPError` `.tlsCertificateLoadFailed`, `.tlsKeyLoadFailed`, `.tlsKeyMismatch`).
    func makeContext() throws -> TLSContext? {
        guard let certificate, let key else { return nil }
        do {
            return try TLSContext(certificateFile: certificate, keyFile: key)
        } catch {
            throw ValidationError(error.reason)
        }
    }

    /// "https" with TLS, else "http".
    var scheme: String { certificate != nil ? "https" : "http" }
}
