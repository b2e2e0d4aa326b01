import CSodium
import Primitives

/// BLAKE2b (RFC 7693) with any output length 1…64 and an optional key of 0…64 bytes, in Swift.
///
/// `Blake2b.hash256` is Substrate's `blake2_256` (account ids of ecdsa keys, junction chain codes,
/// payload hashing); `Blake2b.hash(…, outputLength: 64)` is `Blake2b512` (SS58 checksums).
///
/// Security: constant-time in the data (no data-dependent branches or indices); deterministic;
/// any input length (the byte counter is 128 bits). The internal state holding a key is wiped by
/// `finalize()`.
package struct Blake2b: Sendable {
    private static let iv: [UInt64] = [
        0x6a09_e667_f3bc_c908, 0xbb67_ae85_84ca_a73b, 0x3c6e_f372_fe94_f82b, 0xa54f_f53a_5f1d_36f1,
        0x510e_527f_ade6_82d1, 0x9b05_688c_2b3e_6c1f, 0x1f83_d9ab_fb41_bd6b, 0x5be0_cd19_137e_2179,
    ]
    private static let sigma: [[Int]] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
        [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
        [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
        [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
        [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
        [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
        [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
        [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
        [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
        [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
    ]

    private var h: [UInt64]
    private var buffer: [UInt8]
    private var counterLow: UInt64 = 0
    private var counterHigh: UInt64 = 0
    /// The digest length in bytes (1…64).
    package let outputLength: Int

    /// Starts a hash. Throws `invalidInput` when `outputLength` is outside 1…64 or the key is longer
    /// than 64 bytes.
    package init(outputLength: Int = 32, key: some Collection<UInt8> = [UInt8]()) throws {
        guard (1...64).contains(outputLength) else {
            throw KeyError(.invalidInput, "blake2b: output length \(outputLength) is outside 1…64")
        }
        guard key.count <= 64 else {
            throw KeyError(.invalidInput, "blake2b: key length \(key.count) exceeds 64 bytes")
        }
        self.outputLength = outputLength
        h = Blake2b.iv
        h[0] ^= 0x0101_0000 ^ (UInt64(key.count) << 8) ^ UInt64(outputLength)
        buffer = []
        buffer.reserveCapacity(128)
        if !key.isEmpty {
            buffer.append(contentsOf: key)
            buffer.append(contentsOf: repeatElement(0, count: 128 - key.count))
        }
    }

    /// Absorbs more input.
    package mutating func update(_ data: some Sequence<UInt8>) {
        // Contiguous input (arrays, slices: every caller) is absorbed block by block; the generic
        // byte-by-byte loop cost a protocol-witness call per byte (SS58 checksums, payload hashes).
        if data.withContiguousStorageIfAvailable({ update(contiguous: $0) }) != nil { return }
        for byte in data {
            if buffer.count == 128 {
                increment(by: 128)
                compress(isLast: false)
                buffer.removeAll(keepingCapacity: true)
            }
            buffer.append(byte)
        }
    }

    /// As `update`: a full block is compressed only when more input follows (the last block is
    /// kept for `finalize`).
    private mutating func update(contiguous data: UnsafeBufferPointer<UInt8>) {
        var offset = 0
        while offset < data.count {
            if buffer.count == 128 {
                increment(by: 128)
                compress(isLast: false)
                buffer.removeAll(keepingCapacity: true)
            }
            let take = min(128 - buffer.count, data.count - offset)
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: data[offset..<(offset + take)]))
            offset += take
        }
    }

    /// Returns the digest and wipes the state.
    package mutating func finalize() -> [UInt8] {
        increment(by: UInt64(buffer.count))
        buffer.append(contentsOf: repeatElement(0, count: 128 - buffer.count))
        compress(isLast: true)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for word in h {
            for i in 0..<8 { out.append(UInt8(truncatingIfNeeded: word >> (8 * UInt64(i)))) }
        }
        for i in h.indices { h[i] = 0 }
        ConstantTime.wipe(&buffer)
        return Array(out.prefix(outputLength))
    }

    /// One-shot BLAKE2b. Throws only for an invalid `outputLength` or key length (see `init`).
    package static func hash(
        _ data: some Sequence<UInt8>, outputLength: Int, key: some Collection<UInt8> = [UInt8]()
    ) throws -> [UInt8] {
        var state = try Blake2b(outputLength: outputLength, key: key)
        state.update(data)
        return state.finalize()
    }

    /// BLAKE2b-256, unkeyed (Substrate `blake2_256`).
    package static func hash256(_ data: some Sequence<UInt8>) -> [UInt8] { fixed(data, 32) }

    /// BLAKE2b-512, unkeyed (Substrate `blake2_512`, SS58 checksums).
    package static func hash512(_ data: some Sequence<UInt8>) -> [UInt8] { fixed(data, 64) }

    /// BLAKE2b-128, unkeyed (Substrate `blake2_128`, storage keys).
    package static func hash128(_ data: some Sequence<UInt8>) -> [UInt8] { fixed(data, 16) }

    private static func fixed(_ data: some Sequence<UInt8>, _ length: Int) -> [UInt8] {
        // Valid constant lengths and no key: the initialiser cannot fail.
        var state = Blake2b(validOutputLength: length)
        state.update(data)
        return state.finalize()
    }

    private init(validOutputLength: Int) {
        outputLength = validOutputLength
        h = Blake2b.iv
        h[0] ^= 0x0101_0000 ^ UInt64(validOutputLength)
        buffer = []
        buffer.reserveCapacity(128)
    }

    private mutating func increment(by n: UInt64) {
        let (sum, overflow) = counterLow.addingReportingOverflow(n)
        counterLow = sum
        if overflow { counterHigh &+= 1 }
    }

    @inline(__always)
    private static func rotr(_ x: UInt64, _ n: UInt64) -> UInt64 { (x >> n) | (x << (64 &- n)) }

    private mutating func compress(isLast: Bool) {
        let counterLow = counterLow
        let counterHigh = counterHigh
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 32) { scratch in
            guard let m = scratch.baseAddress else { preconditionFailure("empty temporary allocation") }
            let v = m + 16
            buffer.withUnsafeBytes { block in
                for i in 0..<16 {
                    m[i] = UInt64(littleEndian: block.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))
                }
            }
            h.withUnsafeBufferPointer { hp in
                for i in 0..<8 {
                    v[i] = hp[i]
                    v[i + 8] = Blake2b.iv[i]
                }
            }
            v[12] ^= counterLow
            v[13] ^= counterHigh
            if isLast { v[14] = ~v[14] }
            @inline(__always)
            func g(_ a: Int, _ b: Int, _ c: Int, _ d: Int, _ x: UInt64, _ y: UInt64) {
                v[a] = v[a] &+ v[b] &+ x
                v[d] = Blake2b.rotr(v[d] ^ v[a], 32)
                v[c] = v[c] &+ v[d]
                v[b] = Blake2b.rotr(v[b] ^ v[c], 24)
                v[a] = v[a] &+ v[b] &+ y
                v[d] = Blake2b.rotr(v[d] ^ v[a], 16)
                v[c] = v[c] &+ v[d]
                v[b] = Blake2b.rotr(v[b] ^ v[c], 63)
            }
            for round in 0..<12 {
                let s = Blake2b.sigma[round % 10]
                g(0, 4, 8, 12, m[s[0]], m[s[1]])
                g(1, 5, 9, 13, m[s[2]], m[s[3]])
                g(2, 6, 10, 14, m[s[4]], m[s[5]])
                g(3, 7, 11, 15, m[s[6]], m[s[7]])
                g(0, 5, 10, 15, m[s[8]], m[s[9]])
                g(1, 6, 11, 12, m[s[10]], m[s[11]])
                g(2, 7, 8, 13, m[s[12]], m[s[13]])
                g(3, 4, 9, 14, m[s[14]], m[s[15]])
            }
            h.withUnsafeMutableBufferPointer { hp in
                for i in 0..<8 { hp[i] ^= v[i] ^ v[i + 8] }
            }
            // The message words may be key material: wipe the scratch space.
            sodium_memzero(UnsafeMutableRawPointer(m), 32 * MemoryLayout<UInt64>.size)
        }
    }
}
