#if _endian(big)
    #error("Strobe128 reads the Keccak lanes as little-endian bytes in place")
#endif

/// The subset of STROBE v1.0.2 at 128-bit security that Merlin uses: `meta_ad`, `ad`, `prf`,
/// `key` (merlin `src/strobe.rs`; docs/reference/crypto.md §2.2).
///
/// A value type: copying it clones the transcript state (Merlin's `build_rng` relies on that).
/// Security: constant-time in the data. States that absorbed secrets must be wiped with `wipe()`.
struct Strobe128 {
    static let rate = 166
    private static let flagI: UInt8 = 1
    private static let flagA: UInt8 = 2
    private static let flagC: UInt8 = 4
    private static let flagM: UInt8 = 16

    /// 25 Keccak lanes = 200 bytes.
    private var state:
        (
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
            UInt64
        ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private(set) var pos = 0
    private(set) var posBegin: UInt8 = 0
    private(set) var curFlags: UInt8 = 0

    init(protocolLabel: UnsafeRawBufferPointer) {
        withBytes { st in
            let head: [UInt8] = [1, UInt8(Strobe128.rate + 2), 1, 0, 1, 96]
            for (i, b) in head.enumerated() { st[i] = b }
            for (i, b) in "STROBEv1.0.2".utf8.enumerated() { st[6 + i] = b }
        }
        permute()
        metaAD(protocolLabel, more: false)
    }

    /// The 200 state bytes (tests compare checkpoints).
    var stateBytes: [UInt8] {
        var copy = state
        return withUnsafeBytes(of: &copy) { Array($0) }
    }

    @inline(__always)
    private mutating func withBytes<R>(_ body: (UnsafeMutablePointer<UInt8>) -> R) -> R {
        withUnsafeMutableBytes(of: &state) { raw in
            body(raw.u8)
        }
    }

    @inline(__always)
    private mutating func permute() {
        withUnsafeMutableBytes(of: &state) { raw in
            KeccakF1600.permute(UnsafeMutableRawPointer(raw.u8).assumingMemoryBound(to: UInt64.self))
        }
    }

    private mutating func runF() {
        let begin = posBegin
        let p = pos
        withBytes { st in
            st[p] ^= begin
            st[p + 1] ^= 0x04
            st[Strobe128.rate + 1] ^= 0x80
        }
        permute()
        pos = 0
        posBegin = 0
    }

    private mutating func absorb(_ data: UnsafeRawBufferPointer) {
        var i = 0
        while i < data.count {
            let n = min(Strobe128.rate - pos, data.count - i)
            let p = pos
            withBytes { st in
                for j in 0..<n { st[p + j] ^= data[i + j] }
            }
            pos += n
            i += n
            if pos == Strobe128.rate { runF() }
        }
    }

    private mutating func absorbByte(_ b: UInt8) {
        let p = pos
        withBytes { st in st[p] ^= b }
        pos += 1
        if pos == Strobe128.rate { runF() }
    }

    private mutating func overwrite(_ data: UnsafeRawBufferPointer) {
        var i = 0
        while i < data.count {
            let n = min(Strobe128.rate - pos, data.count - i)
            let p = pos
            withBytes { st in
                for j in 0..<n { st[p + j] = data[i + j] }
            }
            pos += n
            i += n
            if pos == Strobe128.rate { runF() }
        }
    }

    private mutating func squeeze(into out: UnsafeMutableRawBufferPointer) {
        var i = 0
        while i < out.count {
            let n = min(Strobe128.rate - pos, out.count - i)
            let p = pos
            withBytes { st in
                for j in 0..<n {
                    out[i + j] = st[p + j]
                    st[p + j] = 0
                }
            }
            pos += n
            i += n
            if pos == Strobe128.rate { runF() }
        }
    }

    private mutating func beginOp(_ flags: UInt8, more: Bool) {
        if more {
            // Continuation of the previous operation (same flags); nothing is absorbed. Internal
            // callers always continue with the operation they started.
            return
        }
        let oldBegin = posBegin
        posBegin = UInt8(truncatingIfNeeded: pos + 1)
        curFlags = flags
        absorbByte(oldBegin)
        absorbByte(flags)
        if flags & (Strobe128.flagC | 32) != 0 && pos != 0 { runF() }
    }

    mutating func metaAD(_ data: UnsafeRawBufferPointer, more: Bool) {
        beginOp(Strobe128.flagM | Strobe128.flagA, more: more)
        absorb(data)
    }

    mutating func ad(_ data: UnsafeRawBufferPointer, more: Bool) {
        beginOp(Strobe128.flagA, more: more)
        absorb(data)
    }

    mutating func prf(into out: UnsafeMutableRawBufferPointer, more: Bool) {
        beginOp(Strobe128.flagI | Strobe128.flagA | Strobe128.flagC, more: more)
        squeeze(into: out)
    }

    mutating func key(_ data: UnsafeRawBufferPointer, more: Bool) {
        beginOp(Strobe128.flagA | Strobe128.flagC, more: more)
        overwrite(data)
    }

    /// Zeroes the whole state (use on clones that absorbed secrets).
    mutating func wipe() {
        withBytes { st in for i in 0..<200 { st[i] = 0 } }
        pos = 0
        posBegin = 0
        curFlags = 0
    }
}
