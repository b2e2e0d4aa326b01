/// The project's one hexadecimal codec. Encoding writes lower-case digits; decoding accepts upper- and
/// lower-case digits and states its prefix rule explicitly at every call (``Prefix``), so two callers
/// can never silently disagree on what they accept. Untrusted input never traps; errors carry the
/// offset, never the text.
///
/// Not constant-time: use ``decodeSecret(_:prefix:)`` for secrets, which at least leaves no unwiped copy.
package enum Hex {
    /// The rule for the `0x` prefix (lower-case `x` only, as polkadot-js `isHex` and sp-core read it).
    package enum Prefix: Sendable {
        /// `0x` must be present (wire values, SCALE bytes in JSON).
        case required
        /// `0x` may be present (command-line input typed by a person).
        case optional
        /// no prefix (fixed formats that carry bare hex, e.g. keystore ciphertext fields).
        case forbidden
    }

    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Lower-case hex, `0x`-prefixed unless `prefix` is false.
    package static func encode(_ bytes: some Sequence<UInt8>, prefix: Bool = true) -> String {
        // Contiguous input (arrays, slices, Data) is encoded straight from its buffer into the
        // string's storage: this runs for every key, hash and signature on the signing path, and the
        // generic element-by-element loop cost several times more.
        if let text = bytes.withContiguousStorageIfAvailable({ encode(buffer: $0, prefix: prefix) }) { return text }
        return Array(bytes).withUnsafeBufferPointer { encode(buffer: $0, prefix: prefix) }
    }

    /// As ``encode(_:prefix:)`` for an array: not generic, so a caller in another module calls it
    /// directly instead of through the generic entry point's witness tables and metadata look-ups.
    package static func encode(_ bytes: [UInt8], prefix: Bool = true) -> String {
        bytes.withUnsafeBufferPointer { encode(buffer: $0, prefix: prefix) }
    }

    private static func encode(buffer: UnsafeBufferPointer<UInt8>, prefix: Bool) -> String {
        let count = (prefix ? 2 : 0) + buffer.count * 2
        return digits.withUnsafeBufferPointer { digits in
            String(unsafeUninitializedCapacity: count) { out in
                var i = 0
                if prefix {
                    out[0] = 0x30
                    out[1] = 0x78
                    i = 2
                }
                for b in buffer {
                    out[i] = digits[Int(b >> 4)]
                    out[i + 1] = digits[Int(b & 0x0F)]
                    i += 2
                }
                return count
            }
        }
    }

    /// Decodes hex under the given prefix rule.
    /// - Throws: `PrimitivesError` `.hexPrefix`, `.hexOddLength`, `.hexInvalidDigit`.
    package static func decode(_ text: some StringProtocol, prefix: Prefix) throws(PrimitivesError) -> [UInt8] {
        // Native strings and substrings are read from their UTF-8 buffer (the common case, and
        // several times faster than the generic index walk); anything else is copied first.
        let bytes = text.utf8.withContiguousStorageIfAvailable { decode(utf8: $0, prefix: prefix) }
        return try (bytes ?? Array(text.utf8).withUnsafeBufferPointer { decode(utf8: $0, prefix: prefix) }).get()
    }

    /// As ``decode(_:prefix:)`` for a `String` (every payload field): not generic, so a caller in
    /// another module calls it directly instead of through witness tables and metadata look-ups.
    package static func decode(_ text: String, prefix: Prefix) throws(PrimitivesError) -> [UInt8] {
        let bytes = text.utf8.withContiguousStorageIfAvailable { decode(utf8: $0, prefix: prefix) }
        return try (bytes ?? Array(text.utf8).withUnsafeBufferPointer { decode(utf8: $0, prefix: prefix) }).get()
    }

    /// The bytes of the hex in `utf8`, written straight into the array's storage.
    private static func decode(utf8: UnsafeBufferPointer<UInt8>, prefix: Prefix) -> Result<[UInt8], PrimitivesError> {
        let start: Int
        do { start = try digitsStart(utf8, prefix: prefix) } catch { return .failure(error) }
        var failure: PrimitivesError?
        let bytes = [UInt8](unsafeUninitializedCapacity: (utf8.count - start) / 2) { out, initialized in
            var offset = start
            while offset < utf8.count {
                guard let byte = pair(utf8, at: offset, failure: &failure) else { return }
                out[initialized] = byte
                initialized += 1
                offset += 2
            }
        }
        if let failure { return .failure(failure) }
        return .success(bytes)
    }

    /// Decodes hex that must be exactly `byteCount` bytes long.
    /// - Throws: as ``decode(_:prefix:)``, and `.hexWrongLength`.
    package static func decode(
        _ text: some StringProtocol, prefix: Prefix, byteCount: Int
    ) throws(PrimitivesError) -> [UInt8] {
        let bytes = try decode(text, prefix: prefix)
        guard bytes.count == byteCount else {
            throw PrimitivesError(.hexWrongLength, "expected \(byteCount) bytes, got \(bytes.count)")
        }
        return bytes
    }

    /// Decodes hex straight into wiped-on-release storage (no intermediate array of the secret).
    package static func decodeSecret(_ text: some StringProtocol, prefix: Prefix) throws(PrimitivesError) -> SecretBytes
    {
        var bytes = try decode(text, prefix: prefix)
        defer { ConstantTime.wipe(&bytes) }
        return SecretBytes(bytes)
    }

    /// Whether `text` is valid hex under `prefix` (of exactly `byteCount` bytes when given).
    package static func isValid(_ text: some StringProtocol, prefix: Prefix, byteCount: Int? = nil) -> Bool {
        // Native strings and substrings are read from their UTF-8 buffer; anything else is copied first.
        func check(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let start = try? digitsStart(utf8, prefix: prefix) else { return false }
            if let byteCount, byteCount != (utf8.count - start) / 2 { return false }
            var failure: PrimitivesError?
            var offset = start
            while offset < utf8.count {
                guard pair(utf8, at: offset, failure: &failure) != nil else { return false }
                offset += 2
            }
            return true
        }
        return text.utf8.withContiguousStorageIfAvailable(check) ?? Array(text.utf8).withUnsafeBufferPointer(check)
    }

    /// Where the digits start in `utf8` under `prefix`, once the prefix rule and an even number
    /// of digits are checked.
    private static func digitsStart(_ utf8: UnsafeBufferPointer<UInt8>, prefix: Prefix) throws(PrimitivesError) -> Int {
        let hasPrefix = utf8.count >= 2 && utf8[0] == 0x30 && utf8[1] == 0x78
        switch prefix {
        case .required:
            guard hasPrefix else { throw PrimitivesError(.hexPrefix, at: 0, "hex must start with 0x") }
        case .forbidden:
            guard !hasPrefix else { throw PrimitivesError(.hexPrefix, at: 0, "hex must not start with 0x") }
        case .optional: break
        }
        let start = hasPrefix ? 2 : 0
        let digitCount = utf8.count - start
        guard digitCount % 2 == 0 else {
            throw PrimitivesError(.hexOddLength, "odd number of hex digits (\(digitCount))")
        }
        return start
    }

    /// The byte of the two digits at `offset`, or `nil` with `failure` naming the first bad digit.
    @inline(__always)
    private static func pair(
        _ utf8: UnsafeBufferPointer<UInt8>, at offset: Int, failure: inout PrimitivesError?
    ) -> UInt8? {
        guard let hi = nibble(utf8[offset]) else {
            failure = PrimitivesError(.hexInvalidDigit, at: offset, "not a hex digit")
            return nil
        }
        guard let lo = nibble(utf8[offset + 1]) else {
            failure = PrimitivesError(.hexInvalidDigit, at: offset + 1, "not a hex digit")
            return nil
        }
        return hi << 4 | lo
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
