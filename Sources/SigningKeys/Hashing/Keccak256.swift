/// Keccak-256 as Ethereum uses it (original Keccak padding `0x01`, not SHA3's `0x06`).
///
/// Security: constant-time in the data; deterministic; any input length.
package enum Keccak256 {
    /// The 32-byte Keccak-256 digest of `data`.
    package static func hash(_ data: some Sequence<UInt8>) -> [UInt8] {
        let rate = 136
        var lanes = [UInt64](repeating: 0, count: 25)
        var block = [UInt8]()
        block.reserveCapacity(rate)
        func absorb(_ block: [UInt8]) {
            for i in 0..<(rate / 8) {
                var w: UInt64 = 0
                for j in 0..<8 { w |= UInt64(block[i * 8 + j]) << (8 * UInt64(j)) }
                lanes[i] ^= w
            }
            lanes.withUnsafeMutableBufferPointer { p in
                if let base = p.baseAddress { KeccakF1600.permute(base) }
            }
        }
        for byte in data {
            block.append(byte)
            if block.count == rate {
                absorb(block)
                block.removeAll(keepingCapacity: true)
            }
        }
        block.append(0x01)
        block.append(contentsOf: repeatElement(0, count: rate - block.count))
        block[rate - 1] |= 0x80
        absorb(block)
        var out = [UInt8]()
        out.reserveCapacity(32)
        for i in 0..<4 {
            for j in 0..<8 { out.append(UInt8(truncatingIfNeeded: lanes[i] >> (8 * UInt64(j)))) }
        }
        return out
    }
}
