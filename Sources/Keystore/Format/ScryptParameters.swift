import Primitives
/// scrypt cost parameters as stored in a polkadot-js keyring JSON file (docs/reference/crypto.md §7.2).
///
/// Files carry their own parameters; decoders must read them from the file. polkadot-js accepts only
/// an allow-list (`util-crypto/src/scrypt/fromU8a.ts`), which this type enforces too, so that an
/// untrusted file cannot make us allocate gigabytes: the largest allowed cost is N = 2^17, r = 8,
/// p = 1 (128 MiB, about half a second).
package struct ScryptParameters: Hashable, Sendable, CustomStringConvertible {
    /// CPU/memory cost (a power of two).
    package let n: UInt32
    /// Parallelisation.
    package let p: UInt32
    /// Block size.
    package let r: UInt32

    /// Parameters, unchecked; call `validate()` before deriving with them.
    package init(n: UInt32, p: UInt32, r: UInt32) {
        self.n = n
        self.p = p
        self.r = r
    }

    /// N = 2^15, p = 1, r = 8: what polkadot-js wrote before util-crypto 13.5.3, and what Sigil's
    /// exports use. Every polkadot-js, Talisman and SubWallet release imports it. About 0.1 s, 32 MiB.
    package static let interoperable = ScryptParameters(n: 1 << 15, p: 1, r: 8)

    /// N = 2^17, p = 1, r = 8: polkadot-js util-crypto ≥ 13.5.3 default. About 0.5 s, 128 MiB.
    package static let polkadotJsCurrent = ScryptParameters(n: 1 << 17, p: 1, r: 8)

    /// polkadot-js `DEFAULT_PARAMS` allow-list, `(N, p, r)`. The first two entries can never pass the
    /// `p ≤ 4` bound, kept here to mirror the source.
    static let allowList: Set<ScryptParameters> = [
        ScryptParameters(n: 1 << 13, p: 10, r: 8), ScryptParameters(n: 1 << 14, p: 5, r: 8),
        ScryptParameters(n: 1 << 15, p: 3, r: 8), ScryptParameters(n: 1 << 15, p: 1, r: 8),
        ScryptParameters(n: 1 << 16, p: 2, r: 8), ScryptParameters(n: 1 << 17, p: 1, r: 8),
    ]

    /// Checks the parameters the way polkadot-js does: `N ≤ 2^20, p ≤ 4, r ≤ 16` and in the allow-list.
    /// - Throws: `.invalidScryptParameters`.
    package func validate() throws(KeystoreError) {
        guard n <= 1 << 20, p <= 4, r <= 16, Self.allowList.contains(self) else {
            throw KeystoreError(
                .invalidScryptParameters, "scrypt parameters N=\(n) p=\(p) r=\(r) are not in polkadot-js's allow-list")
        }
    }

    package var description: String { "scrypt(N=\(n), p=\(p), r=\(r))" }
}
