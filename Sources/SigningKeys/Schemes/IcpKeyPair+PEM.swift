import Foundation
import Primitives

/// dfx and quill identity files (docs/reference/icp.md §3.3): PEM-wrapped DER private keys.
///
/// Read: SEC1 `EC PRIVATE KEY` (secp256k1; the curve parameter and public key, when present, must
/// be secp256k1 and match), PKCS#8 `PRIVATE KEY` with id-ecPublicKey/secp256k1 (the inner SEC1
/// structure) or id-Ed25519 (v1, or v2 with a public key that must match). Other blocks in the file
/// (`EC PARAMETERS`, which `openssl ecparam -genkey` and dfx write first) are skipped.
/// Write: secp256k1 as SEC1 with curve and public key (what `dfx identity export` prints), Ed25519
/// as PKCS#8 v1.
///
/// Security: the PEM text and the DER bytes are secret; decoded buffers are wiped, the key lands in
/// `SecretBytes`; errors name the structure that failed, never bytes.
extension IcpKeyPair {
    static let oidEcPublicKey: [UInt8] = [0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01]
    static let oidSecp256k1: [UInt8] = [0x2b, 0x81, 0x04, 0x00, 0x0a]
    static let oidEd25519: [UInt8] = [0x2b, 0x65, 0x70]

    /// Parses a dfx/quill PEM file.
    package init(pem text: String) throws {
        var found: (label: String, der: [UInt8])?
        var label: String?
        var body = ""
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("-----BEGIN "), line.hasSuffix("-----") {
                label = String(line.dropFirst(11).dropLast(5))
                body = ""
            } else if line.hasPrefix("-----END "), line.hasSuffix("-----") {
                guard let open = label, String(line.dropFirst(9).dropLast(5)) == open else {
                    throw KeyError(.invalidFormat, "PEM END line does not match its BEGIN line")
                }
                if open == "EC PRIVATE KEY" || open == "PRIVATE KEY" {
                    guard found == nil else {
                        throw KeyError(.invalidFormat, "PEM file holds more than one private key")
                    }
                    guard let data = Data(base64Encoded: body) else {
                        throw KeyError(.invalidFormat, "PEM body is not Base64")
                    }
                    found = (open, Array(data))
                }
                label = nil
                body = ""
            } else if label != nil {
                body += line
            }
        }
        guard let block = found else {
            throw KeyError(.invalidFormat, "no EC PRIVATE KEY or PRIVATE KEY block in the PEM file")
        }
        var der = block.der
        defer { ConstantTime.wipe(&der) }
        if block.label == "EC PRIVATE KEY" {
            self = try IcpKeyPair.fromSEC1(der, requireCurve: false)
        } else {
            self = try IcpKeyPair.fromPKCS8(der)
        }
    }

    /// The key as a PEM file dfx and quill read (SEC1 for secp256k1, PKCS#8 for Ed25519). Secret.
    package func pem() -> String {
        var der: [UInt8]
        let label: String
        let secret = secretKey.unsafeExposedBytes()
        switch algorithm {
        case .secp256k1:
            label = "EC PRIVATE KEY"
            der = DER.sequence(
                DER.tlv(0x02, [1]) + DER.tlv(0x04, secret)
                    + DER.tlv(0xa0, DER.tlv(0x06, IcpKeyPair.oidSecp256k1))
                    + DER.tlv(0xa1, DER.tlv(0x03, [0] + rawPublicKey)))
        case .ed25519:
            label = "PRIVATE KEY"
            der = DER.sequence(
                DER.tlv(0x02, [0]) + DER.sequence(DER.tlv(0x06, IcpKeyPair.oidEd25519))
                    + DER.tlv(0x04, DER.tlv(0x04, secret)))
        }
        var copy = secret
        ConstantTime.wipe(&copy)
        let base64 = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        ConstantTime.wipe(&der)
        return "-----BEGIN \(label)-----\n\(base64)\n-----END \(label)-----\n"
    }

    /// SEC1 ECPrivateKey: `SEQUENCE { 1, OCTET STRING key, [0] curve OPTIONAL, [1] public OPTIONAL }`.
    static func fromSEC1(_ der: [UInt8], requireCurve: Bool) throws -> IcpKeyPair {
        var outer = DER.Reader(der)
        var seq = DER.Reader(try outer.read(0x30))
        try outer.end()
        guard try seq.read(0x02) == [1] else { throw KeyError(.invalidFormat, "SEC1 version is not 1") }
        var secret = Array(try seq.read(0x04))
        defer { ConstantTime.wipe(&secret) }
        var sawCurve = false
        var publicKey: [UInt8]?
        if seq.peek == 0xa0 {
            var params = DER.Reader(try seq.read(0xa0))
            guard try params.read(0x06) == IcpKeyPair.oidSecp256k1 else {
                throw KeyError(.unsupported, "SEC1 key is not on secp256k1")
            }
            sawCurve = true
        }
        if seq.peek == 0xa1 {
            var wrapped = DER.Reader(try seq.read(0xa1))
            let bits = try wrapped.read(0x03)
            guard bits.first == 0 else { throw KeyError(.invalidFormat, "SEC1 public key has unused bits") }
            publicKey = Array(bits.dropFirst())
        }
        try seq.end()
        guard sawCurve || !requireCurve else { throw KeyError(.invalidFormat, "SEC1 key without its curve") }
        let pair = try IcpKeyPair(secretKey: SecretBytes(secret), algorithm: .secp256k1)
        if let publicKey, publicKey != pair.rawPublicKey {
            throw KeyError(.invalidSeed, "SEC1 public key does not match its private key")
        }
        return pair
    }

    /// PKCS#8 PrivateKeyInfo / OneAsymmetricKey (v1 or v2).
    static func fromPKCS8(_ der: [UInt8]) throws -> IcpKeyPair {
        var outer = DER.Reader(der)
        var seq = DER.Reader(try outer.read(0x30))
        try outer.end()
        let version = try seq.read(0x02)
        guard version == [0] || version == [1] else { throw KeyError(.invalidFormat, "PKCS#8 version is not 0 or 1") }
        var algorithm = DER.Reader(try seq.read(0x30))
        let oid = try algorithm.read(0x06)
        var inner = Array(try seq.read(0x04))
        defer { ConstantTime.wipe(&inner) }
        if seq.peek == 0xa0 { _ = try seq.read(0xa0) }  // attributes, ignored
        var publicKey: [UInt8]?
        if seq.peek == 0x81 || seq.peek == 0xa1 {
            let tag = seq.peek ?? 0
            let raw = try seq.read(tag)
            var bits = raw
            if tag == 0xa1 {
                var wrapped = DER.Reader(raw)
                bits = try wrapped.read(0x03)
            }
            guard bits.first == 0 else { throw KeyError(.invalidFormat, "PKCS#8 public key has unused bits") }
            publicKey = Array(bits.dropFirst())
        }
        try seq.end()
        if oid == IcpKeyPair.oidEcPublicKey {
            guard try algorithm.read(0x06) == IcpKeyPair.oidSecp256k1 else {
                throw KeyError(.unsupported, "PKCS#8 EC key is not on secp256k1")
            }
            try algorithm.end()
            return try fromSEC1(inner, requireCurve: false)
        }
        guard oid == IcpKeyPair.oidEd25519 else {
            throw KeyError(.unsupported, "PKCS#8 key is neither secp256k1 nor Ed25519")
        }
        try algorithm.end()
        var seedReader = DER.Reader(inner)
        var seed = Array(try seedReader.read(0x04))
        defer { ConstantTime.wipe(&seed) }
        try seedReader.end()
        let pair = try IcpKeyPair(secretKey: SecretBytes(seed), algorithm: .ed25519)
        if let publicKey, publicKey != pair.rawPublicKey {
            throw KeyError(.invalidSeed, "PKCS#8 public key does not match its private key")
        }
        return pair
    }
}

/// The few DER pieces private-key files need: definite lengths up to 2^16, no indefinite forms.
enum DER {
    struct Reader {
        private let bytes: ArraySlice<UInt8>
        private var position: Int

        init(_ bytes: some Collection<UInt8>) {
            self.bytes = ArraySlice(bytes)
            position = self.bytes.startIndex
        }

        var peek: UInt8? { position < bytes.endIndex ? bytes[position] : nil }

        /// The contents of the next element, which must have `tag`.
        mutating func read(_ tag: UInt8) throws -> [UInt8] {
            guard peek == tag else { throw KeyError(.invalidFormat, "DER: expected tag \(tag)") }
            position += 1
            guard let first = peek else { throw KeyError(.invalidFormat, "DER: truncated length") }
            position += 1
            var length = 0
            if first < 0x80 {
                length = Int(first)
            } else {
                let count = Int(first & 0x7f)
                guard (1...2).contains(count), bytes.endIndex - position >= count else {
                    throw KeyError(.invalidFormat, "DER: unsupported length")
                }
                for _ in 0..<count {
                    length = length << 8 | Int(bytes[position])
                    position += 1
                }
            }
            guard length <= bytes.endIndex - position else {
                throw KeyError(.invalidFormat, "DER: element longer than its input")
            }
            defer { position += length }
            return Array(bytes[position..<position + length])
        }

        func end() throws {
            guard position == bytes.endIndex else { throw KeyError(.invalidFormat, "DER: trailing bytes") }
        }
    }

    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        let n = content.count
        let length: [UInt8] =
            n < 0x80 ? [UInt8(n)] : n < 0x100 ? [0x81, UInt8(n)] : [0x82, UInt8(n >> 8), UInt8(n & 0xff)]
        return [tag] + length + content
    }

    static func sequence(_ content: [UInt8]) -> [UInt8] { tlv(0x30, content) }
}
