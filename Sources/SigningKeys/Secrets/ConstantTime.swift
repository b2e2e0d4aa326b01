import CSodium

/// Constant-time helpers for secret data.
public enum ConstantTime {
    /// `true` when both byte strings are equal. Runs in time that depends only on the lengths
    /// (`sodium_memcmp`). Different lengths return `false` immediately (lengths are not secret).
    /// Contiguous inputs (`Array`, `ArraySlice`, `Data`…) are compared in place; others are copied
    /// into arrays that are wiped afterwards, so no unwiped copy of a secret is left behind.
    public static func equals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        let inPlace = a.withContiguousStorageIfAvailable { p in
            b.withContiguousStorageIfAvailable { q in
                sodium_memcmp(p.baseAddress.unsafelyUnwrapped, q.baseAddress.unsafelyUnwrapped, p.count) == 0
            }
        }
        if let inPlace, let result = inPlace { return result }
        var x = Array(a)
        var y = Array(b)
        defer {
            wipe(&x)
            wipe(&y)
        }
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
