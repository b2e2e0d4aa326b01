/// The project's one hexadecimal codec. Encoding writes lower-case digits; decoding accepts upper- and
/// lower-case digits and states its prefix rule explicitly at every call (``Prefix``), so two callers
/// can never silently disagree on what they accept. Untrusted input never traps; errors carry the
/// offset, never the text.
///
/// Not constant-time: use ``decodeSecret(_:prefix:)`` for secrets, which at least leaves no unwiped copy.
public enum Hex {
    /// The rule for the `0x` prefix (lower-case `x` only, as polkadot-js `isHex` and sp-core read it).
    public enum Prefix: Sendable {
        /// `0x` must be present (wire values, SCALE bytes in JSON).
        case required
        /// `0x` may be present (command-line input typed by a person).
        case optional
        /// no prefix (fixed formats that carry bare hex, e.g. keystore ciphertext fields).
        case forbidden
    }

    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Lower-case hex, `0x`-prefixed unless `prefix` is false.
    public static func encode(_ bytes: some Sequence<UInt8>, prefix: Bool = true) -> String {
        var out: [UInt8] = prefix ? [0x30, 0x78] : []
        out.reserveCapacity(out.count + bytes.underestimatedCount * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes hex under the given prefix rule.
    /// - Throws: `PrimitivesError` `.hexPrefix`, `.hexOddLength`, `.hexInvalidDigit`.
    public static func decode(_ text: some StringProtocol, prefix: Prefix) throws(PrimitivesError) -> [UInt8] {
        var out: [UInt8] = []
        try decode(text, prefix: prefix) { (byte: UInt8) in
            out.append(byte)
        } reserve: {
            out.reserveCapacity($0)
        }
        return out
    }

    /// Decodes hex that must be exactly `byteCount` bytes long.
    /// - Throws: as ``decode(_:prefix:)``, and `.hexWrongLength`.
    public static func decode(
        _ text: some StringProtocol, prefix: Prefix, byteCount: Int
    ) throws(PrimitivesError) -> [UInt8] {
        let bytes = try decode(text, prefix: prefix)
        guard bytes.count == byteCount else {
            throw PrimitivesError(.hexWrongLength, "expected \(byteCount) bytes, got \(bytes.count)")
        }
        return bytes
    }

    /// Decodes hex straight into wiped-on-release storage (no intermediate array of the secret).
    public static func decodeSecret(_ text: some StringProtocol, prefix: Prefix) throws(PrimitivesError) -> SecretBytes
    {
        var bytes = try decode(text, prefix: prefix)
        defer { ConstantTime.wipe(&bytes) }
        return SecretBytes(bytes)
    }

    /// Whether `text` is valid hex under `prefix` (of exactly `byteCount` bytes when given).
    public static func isValid(_ text: some StringProtocol, prefix: Prefix, byteCount: Int? = nil) -> Bool {
        var count = 0
        do {
            try decode(text, prefix: prefix) { (_: UInt8) in
                count += 1
            } reserve: { _ in
            }
        } catch {
            return false
        }
        return byteCount.map { $0 == count } ?? true
    }

    private static func decode(
        _ text: some StringProtocol, prefix: Prefix, _ emit: (UInt8) -> Void, reserve: (Int) -> Void
    ) throws(PrimitivesError) {
        let utf8 = text.utf8
        var i = utf8.startIndex
        let hasPrefix =
            utf8.count >= 2 && utf8[i] == 0x30 && utf8[utf8.index(after: i)] == 0x78
        switch prefix {
        case .required:
            guard hasPrefix else { throw PrimitivesError(.hexPrefix, "hex must start with 0x", offset: 0) }
        case .forbidden:
            guard !hasPrefix else { throw PrimitivesError(.hexPrefix, "hex must not start with 0x", offset: 0) }
        case .optional: break
        }
        var offset = 0
        if hasPrefix {
            i = utf8.index(i, offsetBy: 2)
            offset = 2
        }
        let digitCount = utf8.count - offset
        guard digitCount % 2 == 0 else {
            throw PrimitivesError(.hexOddLength, "odd number of hex digits (\(digitCount))")
        }
        reserve(digitCount / 2)
        while i != utf8.endIndex {
            let hiIndex = i
            i = utf8.index(after: i)
            guard let hi = nibble(utf8[hiIndex]) else {
                throw PrimitivesError(.hexInvalidDigit, "not a hex digit", offset: offset)
            }
            guard let lo = nibble(utf8[i]) else {
                throw PrimitivesError(.hexInvalidDigit, "not a hex digit", offset: offset + 1)
            }
            i = utf8.index(after: i)
            offset += 2
            emit(hi << 4 | lo)
        }
    }

    /// The value of one hex digit, `nil` for any other byte.
    @inline(__always)
    package static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c &- 0x30
        case 0x61...0x66: return c &- 0x61 &+ 10
        case 0x41...0x46: return c &- 0x41 &+ 10
        default: return nil
        }
    }
}
