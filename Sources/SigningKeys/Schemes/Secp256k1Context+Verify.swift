import CSecp256k1
import Primitives

extension Secp256k1Context {
    /// Verifies a 64-byte compact `r ‖ s` ECDSA signature over a 32-byte digest against a SEC1
    /// public key (33 or 65 bytes). libsecp256k1's `secp256k1_ecdsa_verify` accepts only low-S
    /// signatures, as the Internet Computer's `verify_signature` does. Untrusted input; never traps.
    func verifyCompact(signature: [UInt8], digest: [UInt8], publicKey: [UInt8]) -> Bool {
        guard signature.count == 64, digest.count == 32, var pub = parsePublicKey(publicKey) else { return false }
        var sig = secp256k1_ecdsa_signature()
        guard secp256k1_ecdsa_signature_parse_compact(context, &sig, signature) == 1 else { return false }
        return secp256k1_ecdsa_verify(context, &sig, digest, &pub) == 1
    }
}
