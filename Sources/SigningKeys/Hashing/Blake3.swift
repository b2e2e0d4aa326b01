/// BLAKE3 in its hash mode, with extendable output, in Swift (Debian ships no C library for it).
///
/// What RFC-0078's metadata hash uses (`blake3::hash`: leaves, merkle nodes, the extrinsic
/// metadata, the digest; docs/reference/metadata-hash.md). Follows the BLAKE3 paper's reference
/// implementation: 1024-byte chunks of 64-byte blocks, a stack of chunk chaining values merged
/// into parents as chunks complete, the ROOT flag on the final compression, and output blocks
/// counted for outputs longer than 64 bytes.
///
/// The keyed-hash and derive-key modes are not implemented: nothing here needs them, and a keyed
/// mode would have to keep its key in `SecretBytes`. Checked against the official test vectors
/// and the PyPI `blake3` package (`BLAKE3Tests`, scripts/test.d/12-interop-blake3.sh).
///
/// Public data only (not constant-time claims beyond what the arithmetic gives: it has no
/// data-dependent branches); deterministic; any input length.
public struct Blake3: Sendable {
    /// The default digest length in bytes.
    public static let outputLength = 32

    static let iv: [UInt32] = [
        0x6A09_E667, 0xBB67_AE85, 0x3C6E_F372, 0xA54F_F53A, 0x510E_527F, 0x9B05_688C, 0x1F83_D9AB, 0x5BE0_CD19,
    ]
    static let blockLength = 64
    static let chunkLength = 1024
    private static let chunkStart: UInt32 = 1 << 0
    private static let chunkEnd: UInt32 = 1 << 1
    private static let parent: UInt32 = 1 << 2
    private static let root: UInt32 = 1 << 3

    /// The message word order of each of the 7 rounds: the identity, then each round's order
    /// permuted once more by BLAKE3's fixed permutation.
    private static let schedule: [Int] = {
        let permutation = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8]
        var order = Array(0..<16)
        var all: [Int] = []
        for _ in 0..<7 {
            all += order
            order = permutation.map { order[$0] }
        }
        return all
    }()

    /// Chaining values of completed subtrees, 8 words each, oldest first.
    private var stack: [UInt32] = []
    /// The current chunk's chaining value.
    private var chunkCV: [UInt32] = Blake3.iv
    private var chunkCounter: UInt64 = 0
    private var blocksCompressed = 0
    /// The current block (up to 64 bytes; compressed only when more input arrives).
    private var block: [UInt8] = []

    /// Starts a hash.
    public init() { block.reserveCapacity(Self.blockLength) }

    /// Absorbs more input.
    public mutating func update(_ data: some Sequence<UInt8>) {
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
            if block.count == Self.blockLength {
                if blocksCompressed == Self.chunkLength / Self.blockLength - 1 {
                    // The chunk's last block: the chunk is complete and more input follows.
                    let cv = chunkOutput().chainingValue()
                    pushChunk(cv)
                } else {
                    chunkCV = Self.compressBytes(
                        cv: chunkCV, block: block, counter: chunkCounter, blockLength: UInt32(Self.blockLength),
                        flags: blocksCompressed == 0 ? Self.chunkStart : 0
                    ).prefix(8).map { $0 }
                    blocksCompressed += 1
                    block.removeAll(keepingCapacity: true)
                }
            }
            let take = min(Self.blockLength - block.count, input.count - offset)
            block.append(contentsOf: input[offset..<(offset + take)])
            offset += take
        }
    }

    /// Merges a completed chunk into the subtree stack and starts the next chunk.
    private mutating func pushChunk(_ chunkValue: [UInt32]) {
        var cv = chunkValue
        var total = chunkCounter + 1
        while total & 1 == 0 {
            let left = Array(stack[(stack.count - 8)...])
            stack.removeLast(8)
            cv = Self.parentOutput(left: left, right: cv).chainingValue()
            total >>= 1
        }
        stack += cv
        chunkCounter += 1
        chunkCV = Self.iv
        blocksCompressed = 0
        block.removeAll(keepingCapacity: true)
    }

    private func chunkOutput() -> Output {
        Output(
            cv: chunkCV, block: block, counter: chunkCounter, blockLength: UInt32(block.count),
            flags: (blocksCompressed == 0 ? Self.chunkStart : 0) | Self.chunkEnd)
    }

    /// The digest of everything absorbed: `outputLength` bytes (default 32; longer outputs are the
    /// extendable output, whose first 32 bytes are the default digest). The state is unchanged.
    public func finalize(outputLength: Int = Blake3.outputLength) -> [UInt8] {
        var output = chunkOutput()
        var end = stack.count
        while end > 0 {
            output = Self.parentOutput(left: Array(stack[(end - 8)..<end]), right: output.chainingValue())
            end -= 8
        }
        return output.rootBytes(count: max(0, outputLength))
    }

    /// The 32-byte BLAKE3 hash of `data` (`blake3::hash`).
    public static func hash(_ data: some Sequence<UInt8>) -> [UInt8] {
        var state = Blake3()
        state.update(data)
        return state.finalize()
    }

    /// BLAKE3 of `left ‖ right`, two 32-byte hashes (a merkle node): one compression.
    public static func hash(concatenating left: [UInt8], _ right: [UInt8]) -> [UInt8] {
        var block = left
        block += right
        guard left.count == 32, right.count == 32 else { return hash(block) }
        return Output(
            cv: iv, block: block, counter: 0, blockLength: 64, flags: chunkStart | chunkEnd
        ).rootBytes(count: 32)
    }

    private static func parentOutput(left: [UInt32], right: [UInt32]) -> Output {
        var words = left
        words += right
        return Output(cv: iv, words: words, counter: 0, blockLength: UInt32(blockLength), flags: parent)
    }

    /// What the last compression of a (sub)tree needs: its input chaining value, block, counter,
    /// block length and flags. Its chaining value feeds a parent; with the ROOT flag, the output.
    private struct Output {
        var cv: [UInt32]
        var words: [UInt32]
        var counter: UInt64
        var blockLength: UInt32
        var flags: UInt32

        init(cv: [UInt32], words: [UInt32], counter: UInt64, blockLength: UInt32, flags: UInt32) {
            self.cv = cv
            self.words = words
            self.counter = counter
            self.blockLength = blockLength
            self.flags = flags
        }

        init(cv: [UInt32], block: [UInt8], counter: UInt64, blockLength: UInt32, flags: UInt32) {
            self.init(cv: cv, words: Blake3.words(block), counter: counter, blockLength: blockLength, flags: flags)
        }

        func chainingValue() -> [UInt32] {
            Array(
                Blake3.compress(cv: cv, words: words, counter: counter, blockLength: blockLength, flags: flags)[0..<8])
        }

        func rootBytes(count: Int) -> [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(count + 64)
            var blockCounter: UInt64 = 0
            while out.count < count {
                let state = Blake3.compress(
                    cv: cv, words: words, counter: blockCounter, blockLength: blockLength, flags: flags | Blake3.root)
                for word in state {
                    for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: word >> shift)) }
                }
                blockCounter += 1
            }
            return Array(out.prefix(count))
        }
    }

    /// A block of up to 64 bytes as 16 little-endian words, zero-padded.
    static func words(_ block: [UInt8]) -> [UInt32] {
        var words = [UInt32](repeating: 0, count: 16)
        for (i, byte) in block.prefix(64).enumerated() {
            words[i >> 2] |= UInt32(byte) << (8 * UInt32(i & 3))
        }
        return words
    }

    private static func compressBytes(
        cv: [UInt32], block: [UInt8], counter: UInt64, blockLength: UInt32, flags: UInt32
    ) -> [UInt32] {
        compress(cv: cv, words: words(block), counter: counter, blockLength: blockLength, flags: flags)
    }

    /// The compression function: 16 output words (the first 8 are the new chaining value).
    static func compress(cv: [UInt32], words m: [UInt32], counter: UInt64, blockLength: UInt32, flags: UInt32)
        -> [UInt32]
    {
        var v = [UInt32](repeating: 0, count: 16)
        v.withUnsafeMutableBufferPointer { v in
            m.withUnsafeBufferPointer { m in
                schedule.withUnsafeBufferPointer { s in
                    for i in 0..<8 { v[i] = cv[i] }
                    for i in 0..<4 { v[8 + i] = iv[i] }
                    v[12] = UInt32(truncatingIfNeeded: counter)
                    v[13] = UInt32(truncatingIfNeeded: counter >> 32)
                    v[14] = blockLength
                    v[15] = flags
                    @inline(__always)
                    func g(_ a: Int, _ b: Int, _ c: Int, _ d: Int, _ x: UInt32, _ y: UInt32) {
                        v[a] = v[a] &+ v[b] &+ x
                        v[d] = (v[d] ^ v[a]).rotatedRight(16)
                        v[c] = v[c] &+ v[d]
                        v[b] = (v[b] ^ v[c]).rotatedRight(12)
                        v[a] = v[a] &+ v[b] &+ y
                        v[d] = (v[d] ^ v[a]).rotatedRight(8)
                        v[c] = v[c] &+ v[d]
                        v[b] = (v[b] ^ v[c]).rotatedRight(7)
                    }
                    for round in 0..<7 {
                        let r = round * 16
                        g(0, 4, 8, 12, m[s[r + 0]], m[s[r + 1]])
                        g(1, 5, 9, 13, m[s[r + 2]], m[s[r + 3]])
                        g(2, 6, 10, 14, m[s[r + 4]], m[s[r + 5]])
                        g(3, 7, 11, 15, m[s[r + 6]], m[s[r + 7]])
                        g(0, 5, 10, 15, m[s[r + 8]], m[s[r + 9]])
                        g(1, 6, 11, 12, m[s[r + 10]], m[s[r + 11]])
                        g(2, 7, 8, 13, m[s[r + 12]], m[s[r + 13]])
                        g(3, 4, 9, 14, m[s[r + 14]], m[s[r + 15]])
                    }
                    for i in 0..<8 {
                        v[i] ^= v[i + 8]
                        v[i + 8] ^= cv[i]
                    }
                }
            }
        }
        return v
    }
}

extension UInt32 {
    @inline(__always)
    fileprivate func rotatedRight(_ n: UInt32) -> UInt32 { (self >> n) | (self << (32 &- n)) }
}
