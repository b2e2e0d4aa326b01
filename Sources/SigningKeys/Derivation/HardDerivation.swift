import Primitives

/// The hard-junction rule of sp-core's ed25519 and ecdsa pairs:
/// `blake2b-256(SCALE((label, seed, chain_code)))` = `Compact(len) ‖ label ‖ seed ‖ cc`
/// (docs/reference/crypto.md §3.5–3.6). Deterministic.
enum HardDerivation {
    static func seed(label: String, seed: UnsafeRawBufferPointer, chainCode: [UInt8]) -> SecretBytes {
        let labelBytes = Array(label.utf8)
        var input = [UInt8(labelBytes.count << 2)] + labelBytes
        input.append(contentsOf: seed)
        input.append(contentsOf: chainCode)
        var digest = Blake2b.hash256(input)
        let out = SecretBytes(digest)
        ConstantTime.wipe(&input)
        ConstantTime.wipe(&digest)
        return out
    }
}
