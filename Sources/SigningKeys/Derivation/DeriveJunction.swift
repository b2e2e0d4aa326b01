import Primitives

/// One `/soft` or `//hard` element of a derivation path, reduced to its 32-byte chain code exactly
/// as sp-core `DeriveJunction` does (docs/reference/crypto.md §3.3): a decimal code below 2^64 becomes its
/// 8-byte little-endian value, anything else the SCALE string `Compact(len) ‖ UTF-8`; the encoding
/// is zero-padded to 32 bytes, or hashed with BLAKE2b-256 when longer.
///
/// Codes that polkadot-js reads differently are refused with `ambiguousURI` rather than guessed:
/// `+digits` (a number for sp-core, a string for polkadot-js), decimal values ≥ 2^64, and hex
/// `0x…` codes (raw bytes for polkadot-js). `description` does not show the code.
package struct DeriveJunction: Sendable, Equatable, CustomStringConvertible {
    /// The 32-byte chain code.
    package let chainCode: [UInt8]
    /// `true` for `//hard`, `false` for `/soft`.
    package let isHard: Bool

    /// Builds the junction for a path element's code (without the slashes).
    package init(code: String, hard: Bool) throws {
        guard !code.isEmpty else { throw KeyError(.invalidFormat, "empty derivation junction") }
        let utf8 = Array(code.utf8)
        let isDigit = { (c: UInt8) in c >= 0x30 && c <= 0x39 }
        if utf8[0] == 0x2b, utf8.count > 1, utf8.dropFirst().allSatisfy(isDigit) {
            throw KeyError(.ambiguousURI, "junction '+digits' is a number for sp-core but a string for polkadot-js")
        }
        if utf8.count >= 2, utf8[0] == 0x30, utf8[1] == 0x78, utf8.count % 2 == 0,
            utf8.dropFirst(2).allSatisfy({ Hex.nibble($0) != nil })
        {
            throw KeyError(.ambiguousURI, "hex junction is raw bytes for polkadot-js but a string for sp-core")
        }
        guard utf8.count < 1 << 30 else {
            throw KeyError(.invalidFormat, "junction of \(utf8.count) bytes is too long")
        }
        var encoded: [UInt8]
        if utf8.allSatisfy(isDigit) {
            guard let n = UInt64(code) else {
                throw KeyError(
                    .ambiguousURI, "numeric junction ≥ 2^64 is a string for sp-core but a number for polkadot-js")
            }
            encoded = withUnsafeBytes(of: n.littleEndian) { Array($0) }
        } else {
            encoded = DeriveJunction.compactLength(utf8.count) + utf8
        }
        if encoded.count > 32 {
            chainCode = Blake2b.hash256(encoded)
        } else {
            chainCode = encoded + [UInt8](repeating: 0, count: 32 - encoded.count)
        }
        ConstantTime.wipe(&encoded)
        isHard = hard
    }

    /// A junction from a raw 32-byte chain code.
    package init(chainCode: [UInt8], hard: Bool) throws {
        guard chainCode.count == 32 else { throw KeyError(.badLength, "chain code must be 32 bytes") }
        self.chainCode = chainCode
        isHard = hard
    }

    package var description: String { isHard ? "DeriveJunction(hard)" : "DeriveJunction(soft)" }

    /// SCALE `Compact<u32>` of a length (path codes are far below 2^30).
    static func compactLength(_ n: Int) -> [UInt8] {
        switch n {
        case 0..<64: return [UInt8(n << 2)]
        case 64..<(1 << 14): return withUnsafeBytes(of: UInt16(n << 2 | 1).littleEndian) { Array($0) }
        default: return withUnsafeBytes(of: UInt32(truncatingIfNeeded: n << 2 | 2).littleEndian) { Array($0) }
        }
    }
}
