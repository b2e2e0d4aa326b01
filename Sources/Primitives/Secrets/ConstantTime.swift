import CSodium

/// Constant-time comparison and wiping for secret data.
package enum ConstantTime {
    /// `true` when both byte strings are equal, in time that depends only on the lengths
    /// (`sodium_memcmp`). Different lengths return `false` at once (lengths are not secret).
    /// Contiguous inputs are compared in place; others are copied into arrays wiped afterwards.
    package static func equals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        let inPlace = a.withContiguousStorageIfAvailable { p in
            b.withContiguousStorageIfAvailable { q in compare(UnsafeRawBufferPointer(p), UnsafeRawBufferPointer(q)) }
        }
        if let inPlace, let result = inPlace { return result }
        var x = Array(a)
        var y = Array(b)
        defer {
            wipe(&x)
            wipe(&y)
        }
        return x.withUnsafeBytes { p in y.withUnsafeBytes { q in compare(p, q) } }
    }

    /// Equal-length buffers compared with `sodium_memcmp`.
    static func compare(_ p: UnsafeRawBufferPointer, _ q: UnsafeRawBufferPointer) -> Bool {
        guard p.count == q.count else { return false }
        guard let a = p.baseAddress, let b = q.baseAddress else { return p.count == 0 }
        return sodium_memcmp(a, b, p.count) == 0
    }

    /// Overwrites the array's bytes with zeros in a way the optimiser keeps (`sodium_memzero`).
    package static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { wipe($0) }
    }

    /// Overwrites a buffer with zeros (`sodium_memzero`).
    package static func wipe(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        sodium_memzero(base, buffer.count)
    }
}
