import ArgumentParser
import GatewayHTTP
import Logging
import SigilConfiguration

extension ServeSettings {
    /// The TLS context for both ports, or nil to serve plain HTTP. Errors name the bad file
    /// (`HTTPError` `.tlsCertificateLoadFailed`, `.tlsKeyLoadFailed`, `.tlsKeyMismatch`).
    func makeTLSContext() throws -> TLSContext? {
        guard let tlsCertificate, let tlsKey else { return nil }
        do {
            return try TLSContext(certificateFile: tlsCertificate, keyFile: tlsKey)
        } catch {
            throw ValidationError(error.reason)
        }
    }

    /// "https" with TLS, else "http".
    var scheme: String { tlsCertificate != nil ? "https" : "http" }

    /// The approval front end (the resolver accepted only `page` or `terminal`).
    var approvalFrontEnd: ApprovalFrontEnd { ApprovalFrontEnd(rawValue: approve) ?? .page }

    /// swift-log's level (the resolver accepted only its names).
    var loggerLevel: Logger.Level { Logger.Level(rawValue: logLevel) ?? .info }
}
