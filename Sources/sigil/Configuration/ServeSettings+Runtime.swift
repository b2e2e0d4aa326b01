import GatewayHTTP
import Logging
import Primitives
import SigilConfiguration

extension ServeSettings {
    /// The TLS context for both ports, or nil to serve plain HTTP. Loaded at start, before any state
    /// is opened, so a bad certificate or key is a configuration error.
    /// - Throws: `ConfigurationError` naming `tls-cert` or `tls-key` and its source (the reason, from
    ///   `HTTPError` `.tlsCertificateLoadFailed`, `.tlsKeyLoadFailed` or `.tlsKeyMismatch`, names the file).
    func makeTLSContext(_ resolved: ResolvedConfiguration) throws(ConfigurationError) -> TLSContext? {
        guard let tlsCertificate, let tlsKey else { return nil }
        do {
            return try TLSContext(certificateFile: tlsCertificate, keyFile: tlsKey)
        } catch {
            let field = error.code == .tlsCertificateLoadFailed ? "tls-cert" : "tls-key"
            throw ConfigurationError(.invalidValue, source: resolved.source(of: field), field: field, error.reason)
        }
    }

    /// "https" with TLS, else "http".
    var scheme: String { tlsCertificate != nil ? "https" : "http" }

    /// The approval front end (the resolver accepted only `page` or `terminal`).
    var approvalFrontEnd: ApprovalFrontEnd { ApprovalFrontEnd(rawValue: approve) ?? .page }

    /// The log line format (the resolver accepted only `text` or `json`).
    var logFormatValue: LogFormat { LogFormat(rawValue: logFormat) ?? .text }

    /// swift-log's level (the resolver accepted only its names).
    var loggerLevel: Logger.Level { Logger.Level(rawValue: logLevel) ?? .info }
}
