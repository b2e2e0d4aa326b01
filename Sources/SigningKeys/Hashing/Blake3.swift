/// BLAKE3 in its hash mode, with extendable output, in Swift (Debian ships no C library for it).
///
/// What RFC-0078's metadata hash uses (`blake3::hash`: leaves, merkle nodes, the extrinsic
/// metadata, the digest; docs/reference/metadata-hash.md). Follows the BLAKE3 paper's reference
/// implementation: 1024-byte chunks of 64-byte blocks, a stack of chunk chaining values merged
/// into parents as chunks complete, the ROOT flag on the final compression, and output blocks
/// counted for outputs longer than 64 bytes. Portable scalar code (no SIMD across blocks):
/// state in registers, no allocation per compression.
///
/// The keyed-hash and derive-key modes are not implemented: nothing here needs them, and a keyed
/// mode would have to keep its key in `SecretBytes`. Checked against the official test vectors
/// and the PyPI `blake3` package (`Blake3Tests`, scripts/test.d/12-interop-blake3.sh).
///
/// For public data (no secret-dependent branches or indices, but no wiping either); deterministic;
/// any input length.
package struct Blake3: Sendable {
    /// The default digest length in bytes.
    package static let outputLength = 32

    typealias Words8 = SIMD8<UInt32>
    typealias Words16 = SIMD16<UInt32>

    static let iv = Words8(
        0x6A09_E667, 0xBB67_AE85, 0x3C6E_F372, 0xA54F_F53A, 0x510E_527F, 0x9B05_688C, 0x1F83_D9AB, 0x5BE0_CD19)
    static let blockLength = 64
    static let blocksPerChunk = 16  // 1024-byte chunks
    static let chunkStart: UInt32 = 1 << 0
    static let chunkEnd: UInt32 = 1 << 1
    static let parent: UInt32 = 1 << 2
    static let root: UInt32 = 1 << 3

    /// Chaining values of completed subtrees, oldest first.
    private var stack: [Words8] = []
    /// The current chunk's chaining value.
    private var chunkCV = Blake3.iv
    private var chunkCounter: UInt64 = 0
    private var blocksCompressed = 0
    /// The current block as little-endian words, zero-padded; compressed only when more input arrives.
    private var block = Words16()
    private var blockFill = 0

    /// Starts a hash.
    package init() {}

    /// Absorbs more input.
    package mutating func update(_ data: some Sequence<UInt8>) {
        let done: Void? = data.withContiguousStorageIfAvailable { buffer in
            update(UnsafeRawBufferPointer(buffer))
        }
        if done == nil {
            let bytes = Array(data)
            bytes.withUnsafeBytes { update($0) }
        }
    }

    private mutating func update(_ input: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < input.count {
            if blockFill == Self.blockLength {
                // A full block and more input after it: the block is not the last of the message.
                if blocksCompressed == Self.blocksPerChunk - 1 {
                    pushChunk(chunkOutput().chainingValue())
                } else {
                    chunkCV = Self.chainingValue(
                        Self.compress(
                            chunkCV, block, counter: chunkCounter, blockLength: UInt32(Self.blockLength),
                            flags: blocksCompressed == 0 ? Self.chunkStart : 0))
                    blocksCompressed += 1
                    block = Words16()
                    blockFill = 0
                }
            }
            if blockFill == 0, input.count - offset >= Self.blockLength {
                for i in 0..<16 {
                    block[i] = UInt32(
                        littleEndian: input.loadUnaligned(fromByteOffset: offset + 4 * i, as: UInt32.self))
                }
                blockFill = Self.blockLength
                offset += Self.blockLength
                continue
            }
            while blockFill < Self.blockLength, offset < input.count {
                block[blockFill >> 2] |= UInt32(input[offset]) << (8 * UInt32(blockFill & 3))
                blockFill += 1
                offset += 1
            }
        }
    }

    /// Merges a completed chunk into the subtree stack (one merge per trailing zero bit of the
    /// chunk count) and starts the next chunk.
    private mutating func pushChunk(_ chunkValue: Words8) {
        var cv = chunkValue
        var total = chunkCounter + 1
        while total & 1 == 0, let left = stack.popLast() {
            cv = Self.parentOutput(left: left, right: cv).chainingValue()
            total >>= 1
        }
        stack.append(cv)
        chunkCounter += 1
        chunkCV = Self.iv
        blocksCompressed = 0
        block = Words16()
        blockFill = 0
    }

    private func chunkOutput() -> Output {
        Output(
            cv: chunkCV, block: block, counter: chunkCounter, blockLength: UInt32(blockFill),
            flags: (blocksCompressed == 0 ? Self.chunkStart : 0) | Self.chunkEnd)
    }

    /// The digest of everything absorbed: `outputLength` bytes (default 32; longer outputs are the
    /// extendable output, whose first 32 bytes are the default digest). The state is unchanged.
    package func finalize(outputLength: Int = Blake3.outputLength) -> [UInt8] {
        var output = chunkOutput()
        for left in stack.reversed() {
            output = Self.parentOutput(left: left, right: output.chainingValue())
        }
        return output.rootBytes(count: max(0, outputLength))
    }

    /// The 32-byte BLAKE3 hash of `data` (`blake3::hash`).
    package static func hash(_ data: some Sequence<UInt8>) -> [UInt8] {
        var state = Blake3()
        state.update(data)
        return state.finalize()
    }

    /// BLAKE3 of `left ‖ right` (a merkle node over two 32-byte hashes: one compression).
    package static func hash(concatenating left: [UInt8], _ right: [UInt8]) -> [UInt8] {
        guard left.count == 32, right.count == 32 else { return hash(left + right) }
        var words = Words16()
        left.withUnsafeBytes { l in
            right.withUnsafeBytes { r in
                for i in 0..<8 {
                    words[i] = UInt32(littleEndian: l.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))
                    words[8 + i] = UInt32(littleEndian: r.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))
                }
            }
        }
        return Output(cv: iv, block: words, counter: 0, blockLength: 64, flags: chunkStart | chunkEnd)
            .rootBytes(count: 32)
    }

    private static func parentOutput(left: Words8, right: Words8) -> Output {
        Output(
            cv: iv, block: Words16(lowHalf: left, highHalf: right), counter: 0, blockLength: UInt32(blockLength),
            flags: parent)
    }

    /// What the last compression of a (sub)tree needs: its input chaining value, block, counter,
    /// block length and flags. Its chaining value feeds a parent; with the ROOT flag, the output.
    private struct Output {
        var cv: Words8
        var block: Words16
        var counter: UInt64
        var blockLength: UInt32
        var flags: UInt32

        func chainingValue() -> Words8 {
            Blake3.chainingValue(Blake3.compress(cv, block, counter: counter, blockLength: blockLength, flags: flags))
        }

        func rootBytes(count: Int) -> [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(count + 64)
            var blockCounter: UInt64 = 0
            while out.count < count {
                let state = Blake3.compress(
                    cv, block, counter: blockCounter, blockLength: blockLength, flags: flags | Blake3.root)
                for i in 0..<16 {
                    let word = state[i]
                    out.append(UInt8(truncatingIfNeeded: word))
                    out.append(UInt8(truncatingIfNeeded: word >> 8))
                    out.append(UInt8(truncatingIfNeeded: word >> 16))
                    out.append(UInt8(truncatingIfNeeded: word >> 24))
                }
                blockCounter += 1
            }
            if out.count > count { out.removeLast(out.count - count) }
            return out
        }
    }

    @inline(__always)
    static func chainingValue(_ state: Words16) -> Words8 { state.lowHalf }

    /// The compression function: 16 output words (the first 8 are the new chaining value).
    static func compress(_ cv: Words8, _ block: Words16, counter: UInt64, blockLength: UInt32, flags: UInt32)
        -> Words16
    {
        var v0 = cv[0], v1 = cv[1], v2 = cv[2], v3 = cv[3], v4 = cv[4], v5 = cv[5], v6 = cv[6], v7 = cv[7]
        var v8 = iv[0], v9 = iv[1], v10 = iv[2], v11 = iv[3]
        var v12 = UInt32(truncatingIfNeeded: counter), v13 = UInt32(truncatingIfNeeded: counter >> 32)
        var v14 = blockLength, v15 = flags
        var m = block
        @inline(__always)
        func g(_ a: inout UInt32, _ b: inout UInt32, _ c: inout UInt32, _ d: inout UInt32, _ x: UInt32, _ y: UInt32) {
            a = a &+ b &+ x
            d = rotr(d ^ a, 16)
            c = c &+ d
            b = rotr(b ^ c, 12)
            a = a &+ b &+ y
            d = rotr(d ^ a, 8)
            c = c &+ d
            b = rotr(b ^ c, 7)
        }
        for round in 0..<7 {
            g(&v0, &v4, &v8, &v12, m[0], m[1])
            g(&v1, &v5, &v9, &v13, m[2], m[3])
            g(&v2, &v6, &v10, &v14, m[4], m[5])
            g(&v3, &v7, &v11, &v15, m[6], m[7])
            g(&v0, &v5, &v10, &v15, m[8], m[9])
            g(&v1, &v6, &v11, &v12, m[10], m[11])
            g(&v2, &v7, &v8, &v13, m[12], m[13])
            g(&v3, &v4, &v9, &v14, m[14], m[15])
            if round < 6 {
                // BLAKE3's message permutation [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8].
                m = Words16(
                    m[2], m[6], m[3], m[10], m[7], m[0], m[4], m[13], m[1], m[11], m[12], m[5], m[9], m[14], m[15], m[8]
                )
            }
        }
        return Words16(
            v0 ^ v8, v1 ^ v9, v2 ^ v10, v3 ^ v11, v4 ^ v12, v5 ^ v13, v6 ^ v14, v7 ^ v15,
            v8 ^ cv[0], v9 ^ cv[1], v10 ^ cv[2], v11 ^ cv[3], v12 ^ cv[4], v13 ^ cv[5], v14 ^ cv[6], v15 ^ cv[7])
    }

    @inline(__always)
    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 &- n)) }
}
