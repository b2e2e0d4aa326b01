import ArgumentParser
import GatewayHTTP

extension ServeOptions {
    /// The TLS context for both ports from --tls-cert/--tls-key, or nil to serve plain HTTP.
    /// Errors name the bad file (`HTTPError` `.tlsCertificateLoadFailed`, `.tlsKeyLoadFailed`,
    /// `.tlsKeyMismatch`).
    func makeTLSContext() throws -> TLSContext? {
        switch (tlsCert, tlsKey) {
        case (nil, nil):
            return nil
        case (let certificate?, let key?):
            do {
                return try TLSContext(certificateFile: certificate, keyFile: key)
            } catch {
                throw ValidationError(error.reason)
            }
        default:
            throw ValidationError("--tls-cert and --tls-key go together")
        }
    }

    /// "https" with TLS, else "http".
    var scheme: String { tlsCert != nil ? "https" : "http" }
}
