/// The width-w non-adjacent form of a scalar (curve25519-dalek `Scalar::non_adjacent_form`):
/// 256 signed digits, each 0 or odd with |digit| < 2^(w−1), any w consecutive digits holding at
/// most one non-zero, and Σ digit[i]·2^i equal to the scalar.
///
/// Security: variable-time (the digit pattern depends on the scalar); public scalars only.
struct NonAdjacentForm: Sendable {
    var digits: InlineArray<256, Int8>

    /// `scalar`: 32 little-endian bytes of a value below 2^255 (bit 255 is ignored); `width` 2…8.
    init(scalar b: UnsafeRawBufferPointer, width w: Int) {
        var words: InlineArray<5, UInt64> = .init(repeating: 0)
        for k in 0..<4 {
            var v: UInt64 = 0
            for i in 0..<8 where 8 * k + i < b.count { v |= UInt64(b[8 * k + i]) << (8 * UInt64(i)) }
            words[k] = v
        }
        words[3] &= 0x7fff_ffff_ffff_ffff
        digits = .init(repeating: 0)
        let width = UInt64(1) << UInt64(w)
        let windowMask = width - 1
        var pos = 0
        var carry: UInt64 = 0
        while pos < 256 {
            let index = pos / 64
            let bit = pos % 64
            let buffer: UInt64 =
                bit < 64 - w
                ? words[index] >> UInt64(bit)
                : (words[index] >> UInt64(bit)) | (words[index + 1] << UInt64(64 - bit))
            let window = carry + (buffer & windowMask)
            if window & 1 == 0 {
                pos += 1
                continue
            }
            if window < width / 2 {
                carry = 0
                digits[pos] = Int8(window)
            } else {
                carry = 1
                digits[pos] = Int8(Int64(window) - Int64(width))
            }
            pos += w
        }
    }
}
