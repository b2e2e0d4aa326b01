import COpenSSL
import Glibc
import Primitives

/// A fresh ECDSA P-256 key and a self-signed X.509 v3 certificate for one host name or IP address,
/// for trying HTTPS out (`sigil tls self-signed`). Not for production: nothing vouches for it, so
/// every client must be told to trust this exact certificate.
///
/// The certificate: CN = host; subjectAltName DNS:host, or IP:host for a numeric IPv4/IPv6 address
/// (browsers ignore CN, RFC 6125 §6.4.4); basicConstraints CA:FALSE; keyUsage digitalSignature;
/// extendedKeyUsage serverAuth; a random 128-bit serial; valid from now for `days` days; signed
/// with ECDSA-SHA256. Non-deterministic (fresh key, random serial). The private key PEM is secret:
/// the caller writes it with mode 0600 and never logs it.
package struct SelfSignedCertificate: Sendable {
    /// The certificate, PEM ("-----BEGIN CERTIFICATE-----").
    package let certificatePEM: [UInt8]
    /// The private key, PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----"), unencrypted. Secret.
    package let privateKeyPEM: [UInt8]

    /// Generates a key and certificate.
    /// - Parameters:
    ///   - host: a DNS name (letters, digits, `-`, `.`; 1...253 bytes) or a numeric IP address.
    ///   - days: validity in days, 1...825 (the CA/Browser Forum maximum for leaf certificates).
    /// - Throws: `HTTPError` `.invalidInput` for a bad host or duration, `.tlsFailed` if OpenSSL fails.
    package static func generate(host: String, days: Int = 365) throws(HTTPError) -> SelfSignedCertificate {
        guard (1...825).contains(days) else { throw HTTPError(.invalidInput, "days must be within 1...825") }
        let altName: String
        if isIPAddress(host) {
            altName = "IP:\(host)"
        } else if isDNSName(host) {
            altName = "DNS:\(host)"
        } else {
            throw HTTPError(
                .invalidInput, "host must be a DNS name (letters, digits, '-', '.') or a numeric IP address")
        }
        ERR_clear_error()
        let key = try generateKey()
        defer { EVP_PKEY_free(key) }
        guard let certificate = X509_new() else { throw failure("X509_new") }
        defer { X509_free(certificate) }

        guard X509_set_version(certificate, 2) == 1 else { throw failure("X509_set_version") }
        try setRandomSerial(certificate)
        guard X509_gmtime_adj(X509_getm_notBefore(certificate), 0) != nil,
            X509_gmtime_adj(X509_getm_notAfter(certificate), days * 86_400) != nil
        else { throw failure("validity") }
        guard X509_set_pubkey(certificate, key) == 1 else { throw failure("X509_set_pubkey") }
        guard let name = X509_get_subject_name(certificate),
            X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, host, -1, -1, 0) == 1,
            X509_set_issuer_name(certificate, name) == 1
        else { throw failure("subject name") }

        var v3 = X509V3_CTX()
        X509V3_set_ctx(&v3, certificate, certificate, nil, nil, 0)
        let extensions: [(Int32, String)] = [
            (NID_basic_constraints, "critical,CA:FALSE"),
            (NID_key_usage, "critical,digitalSignature"),
            (NID_ext_key_usage, "serverAuth"),
            (NID_subject_alt_name, altName),
            (NID_subject_key_identifier, "hash"),
        ]
        for (nid, value) in extensions {
            guard let ext = X509V3_EXT_conf_nid(nil, &v3, nid, value) else { throw failure("extension \(nid)") }
            defer { X509_EXTENSION_free(ext) }
            guard X509_add_ext(certificate, ext, -1) == 1 else { throw failure("X509_add_ext") }
        }
        guard X509_sign(certificate, key, EVP_sha256()) > 0 else { throw failure("X509_sign") }

        let certificatePEM = try pem { PEM_write_bio_X509($0, certificate) }
        let keyPEM = try pem { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) }
        return SelfSignedCertificate(certificatePEM: certificatePEM, privateKeyPEM: keyPEM)
    }

    /// True for a numeric IPv4 or IPv6 address.
    static func isIPAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// RFC 1123 host name syntax: labels of letters, digits and '-', 1...63 bytes, not starting or
    /// ending with '-'; 1...253 bytes in all.
    static func isDNSName(_ host: String) -> Bool {
        let bytes = Array(host.utf8)
        guard (1...253).contains(bytes.count) else { return false }
        let labels = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            guard (1...63).contains(label.count), label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-")
            else { return false }
            return label.allSatisfy { b in
                (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D
            }
        }
    }

    private static func generateKey() throws(HTTPError) -> OpaquePointer {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { throw failure("EVP_PKEY_CTX") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
            EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
            EVP_PKEY_generate(context, &key) == 1,
            let key
        else { throw failure("P-256 key generation") }
        return key
    }

    private static func setRandomSerial(_ certificate: OpaquePointer) throws(HTTPError) {
        var serial = [UInt8](repeating: 0, count: 16)
        guard RAND_bytes(&serial, Int32(serial.count)) == 1 else { throw failure("RAND_bytes") }
        serial[0] = (serial[0] & 0x7F) | 0x01  // positive and exactly 16 bytes (RFC 5280 §4.1.2.2)
        guard let number = BN_bin2bn(serial, Int32(serial.count), nil) else { throw failure("BN_bin2bn") }
        defer { BN_free(number) }
        guard BN_to_ASN1_INTEGER(number, X509_get_serialNumber(certificate)) != nil else {
            throw failure("serial")
        }
    }

    /// Runs a PEM writer into a memory BIO and returns the bytes.
    private static func pem(_ write: (OpaquePointer) -> Int32) throws(HTTPError) -> [UInt8] {
        guard let bio = BIO_new(BIO_s_mem()) else { throw failure("BIO_new") }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { throw failure("PEM write") }
        let count = Int(BIO_ctrl_pending(bio))
        var bytes = [UInt8](repeating: 0, count: count)
        let n = bytes.withUnsafeMutableBytes { BIO_read(bio, $0.baseAddress, Int32(clamping: count)) }
        guard Int(n) == count else { throw failure("BIO_read") }
        return bytes
    }

    private static func failure(_ step: String) -> HTTPError {
        HTTPError(.tlsFailed, "\(step): \(OpenSSLErrors.drain())")
    }
}
