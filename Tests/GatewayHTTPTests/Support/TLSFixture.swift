import Glibc

@testable import GatewayHTTP

/// A fresh self-signed certificate and key for `host` in a temporary directory (removed on deinit),
/// and a `TLSContext` loaded from them.
final class TLSFixture {
    let directory: String
    let certificatePath: String
    let keyPath: String
    let context: TLSContext

    init(host: String = "localhost") throws {
        var template = Array("/tmp/sigil-tls-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestClient.Failure(description: "mkdtemp") }
        directory = String(cString: made)
        certificatePath = directory + "/cert.pem"
        keyPath = directory + "/key.pem"
        let generated = try SelfSignedCertificate.generate(host: host)
        try Self.write(generated.certificatePEM, to: certificatePath)
        try Self.write(generated.privateKeyPEM, to: keyPath)
        context = try TLSContext(certificateFile: certificatePath, keyFile: keyPath)
    }

    deinit {
        for name in ["cert.pem", "key.pem", "other.pem", "garbage.pem"] { unlink(directory + "/" + name) }
        rmdir(directory)
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        guard let file = fopen(path, "wb") else { throw TestClient.Failure(description: "fopen \(path)") }
        defer { fclose(file) }
        guard fwrite(bytes, 1, bytes.count, file) == bytes.count else {
            throw TestClient.Failure(description: "fwrite \(path)")
        }
    }
}
