import CSodium

/// Constant-time helpers for secret data.
public enum ConstantTime {
    /// `true` when both byte strings are equal. Runs in time that depends only on the lengths
    /// (`sodium_memcmp`). Different lengths return `false` immediately (lengths are not secret).
    public static func equals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        let x = Array(a)
        let y = Array(b)
        guard x.count == y.count else { return false }
        if x.isEmpty { return true }
        return x.withUnsafeBytes { p in
            y.withUnsafeBytes { q in
                sodium_memcmp(p.baseAddress.unsafelyUnwrapped, q.baseAddress.unsafelyUnwrapped, p.count) == 0
            }
        }
    }

    /// Overwrites the array's bytes with zeros in a way the optimiser keeps (`sodium_memzero`).
    public static func wipe(_ bytes: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeMutableBytes { sodium_memzero($0.baseAddress.unsafelyUnwrapped, $0.count) }
    }
}
