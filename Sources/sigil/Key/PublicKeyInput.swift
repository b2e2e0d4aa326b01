import Primitives
import SigningKeys

/// Parses a public key given as 0x hex or an SS58 address.
enum PublicKeyInput {
    /// With `requireKey`, the result must be a public key (not an ecdsa account id hash).
    static func parse(_ text: String, scheme: KeyScheme, requireKey: Bool) throws -> [UInt8] {
        if text.hasPrefix("0x") {
            let bytes = try Hex.decode(text, prefix: .required)
            let allowed = requireKey ? [scheme.publicKeyLength] : [scheme.publicKeyLength, scheme.accountIdLength, 65]
            guard allowed.contains(bytes.count) else {
                throw KeyError(
                    .badLength, "\(scheme) public key must be \(scheme.publicKeyLength) bytes, got \(bytes.count)")
            }
            return bytes
        }
        if let address = try? SS58.decode(text, keyLength: scheme.publicKeyLength) { return address.key }
        if !requireKey || scheme.publicKeyLength == 32 { return try SS58.decode(text, keyLength: 32).key }
        return try SS58.decode(text, keyLength: scheme.publicKeyLength).key
    }
}
