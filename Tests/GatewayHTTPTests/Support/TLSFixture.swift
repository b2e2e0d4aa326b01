import COpenSSL
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
        for name in ["cert.pem", "key.pem", "other.pem", "garbage.pem", "encrypted.pem"] {
            unlink(directory + "/" + name)
        }
        rmdir(directory)
    }

    /// Writes this fixture's key again, encrypted (PKCS#8, AES-256-CBC, passphrase "secret").
    func writeEncryptedKey(to path: String) throws {
        guard let input = BIO_new_file(keyPath, "r") else { throw TestClient.Failure(description: "open key") }
        defer { BIO_free(input) }
        guard let key = PEM_read_bio_PrivateKey(input, nil, nil, nil) else {
            throw TestClient.Failure(description: "read key")
        }
        defer { EVP_PKEY_free(key) }
        guard let output = BIO_new_file(path, "w") else { throw TestClient.Failure(description: "open \(path)") }
        defer { BIO_free(output) }
        var passphrase = Array("secret".utf8CString)
        guard PEM_write_bio_PKCS8PrivateKey(output, key, EVP_aes_256_cbc(), &passphrase, 6, nil, nil) == 1 else {
            throw TestClient.Failure(description: "write encrypted key")
        }
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        guard let file = fopen(path, "wb") else { throw TestClient.Failure(description: "fopen \(path)") }
        defer { fclose(file) }
        guard fwrite(bytes, 1, bytes.count, file) == bytes.count else {
            throw TestClient.Failure(description: "fwrite \(path)")
        }
    }
}
