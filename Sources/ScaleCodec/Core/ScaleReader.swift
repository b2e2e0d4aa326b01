import Primitives
/// A cursor over SCALE-encoded bytes (parity-scale-codec wire format).
///
/// Security: built for untrusted input. Every read checks the bytes left before touching them and
/// throws ``ScaleError`` carrying the offset; a read that fails does not move the cursor. Length
/// prefixes are compared with the bytes left **before** anything is allocated, so a 4-byte prefix
/// claiming 4 GB fails at once. Compact integers must be in their shortest form. Nothing traps.
package struct ScaleReader: Sendable {
    /// The bytes being read.
    package let bytes: [UInt8]
    /// Index of the next byte to read.
    package private(set) var offset: Int

    /// Creates a reader at the start of `bytes`.
    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.offset = 0
    }

    /// Bytes not read yet.
    package var remaining: Int { bytes.count - offset }
    /// Whether every byte has been read.
    package var isAtEnd: Bool { offset >= bytes.count }

    /// Decodes one complete value from `bytes` and fails if bytes are left over.
    /// - Throws: whatever `body` throws, or `ScaleError.trailingBytes`.
    package static func decode<T>(_ bytes: [UInt8], _ body: (inout ScaleReader) throws -> T) throws -> T {
        var reader = ScaleReader(bytes)
        let value = try body(&reader)
        try reader.expectEnd()
        return value
    }

    /// Throws `trailingBytes` unless every byte was read.
    package func expectEnd() throws {
        if remaining > 0 {
            throw ScaleError(.trailingBytes, "\(remaining) byte(s) left over at offset \(offset)")
        }
    }

    // MARK: raw bytes

    /// Reads one byte.
    package mutating func readByte() throws -> UInt8 {
        guard offset < bytes.count else {
            throw ScaleError(.truncated, "need 1 byte at offset \(offset), have 0")
        }
        let b = bytes[offset]
        offset += 1
        return b
    }

    /// Reads `count` raw bytes (checked against the bytes left before copying).
    package mutating func readBytes(_ count: Int) throws -> [UInt8] {
        guard count >= 0, count <= remaining else {
            throw ScaleError(.truncated, "need \(count) bytes at offset \(offset), have \(remaining)")
        }
        let out = Array(bytes[offset..<(offset + count)])
        offset += count
        return out
    }

    /// Skips `count` bytes.
    package mutating func skip(_ count: Int) throws {
        guard count >= 0, count <= remaining else {
            throw ScaleError(.truncated, "need \(count) bytes at offset \(offset), have \(remaining)")
        }
        offset += count
    }

    /// Returns the next byte without consuming it.
    package func peekByte() throws -> UInt8 {
        guard offset < bytes.count else {
            throw ScaleError(.truncated, "need 1 byte at offset \(offset), have 0")
        }
        return bytes[offset]
    }

    // MARK: fixed-width integers (little-endian)

    private mutating func readLE(_ width: Int) throws -> UInt128 {
        guard width <= remaining else {
            throw ScaleError(.truncated, "need \(width) bytes at offset \(offset), have \(remaining)")
        }
        var v: UInt128 = 0
        for i in 0..<width {
            v |= UInt128(bytes[offset + i]) << (8 * i)
        }
        offset += width
        return v
    }

    /// Reads a `u8`.
    package mutating func readU8() throws -> UInt8 { try readByte() }
    /// Reads a little-endian `u16`.
    package mutating func readU16() throws -> UInt16 { UInt16(truncatingIfNeeded: try readLE(2)) }
    /// Reads a little-endian `u32`.
    package mutating func readU32() throws -> UInt32 { UInt32(truncatingIfNeeded: try readLE(4)) }
    /// Reads a little-endian `u64`.
    package mutating func readU64() throws -> UInt64 { UInt64(truncatingIfNeeded: try readLE(8)) }
    /// Reads a little-endian `u128`.
    package mutating func readU128() throws -> UInt128 { try readLE(16) }
    /// Reads a little-endian `u256`.
    package mutating func readU256() throws -> UInt256 {
        let start = offset
        guard remaining >= 32 else {
            throw ScaleError(.truncated, "need 32 bytes at offset \(start), have \(remaining)")
        }
        let low = try readLE(16)
        let high = try readLE(16)
        return UInt256(high: high, low: low)
    }
    /// Reads a little-endian two's-complement `i8`.
    package mutating func readI8() throws -> Int8 { Int8(bitPattern: try readByte()) }
    /// Reads a little-endian two's-complement `i16`.
    package mutating func readI16() throws -> Int16 { Int16(bitPattern: try readU16()) }
    /// Reads a little-endian two's-complement `i32`.
    package mutating func readI32() throws -> Int32 { Int32(bitPattern: try readU32()) }
    /// Reads a little-endian two's-complement `i64`.
    package mutating func readI64() throws -> Int64 { Int64(bitPattern: try readU64()) }
    /// Reads a little-endian two's-complement `i128`.
    package mutating func readI128() throws -> Int128 { Int128(bitPattern: try readU128()) }

    /// Reads a bool: exactly `0x00` or `0x01`.
    package mutating func readBool() throws -> Bool {
        let b = try peekByte()
        guard b <= 1 else {
            throw ScaleError(.invalidBool, "bool byte 0x\(String(b, radix: 16)) at offset \(offset)")
        }
        offset += 1
        return b == 1
    }

    // MARK: compact

    /// Reads a `Compact<u128>` (any compact up to 2^128 - 1), rejecting non-canonical forms.
    ///
    /// parity-scale-codec `src/compact.rs`: only the shortest encoding of a value decodes.
    package mutating func readCompact() throws -> UInt128 {
        let start = offset
        let first = try peekByte()
        switch first & 0b11 {
        case 0:
            offset += 1
            return UInt128(first >> 2)
        case 1:
            let raw = try readLE(2)
            let v = raw >> 2
            guard v > 0b11_1111 else {
                offset = start
                throw ScaleError(.nonCanonical, "compact \(v) in 2-byte form at offset \(start)")
            }
            return v
        case 2:
            let raw = try readLE(4)
            let v = raw >> 2
            guard v > 0b11_1111_1111_1111 else {
                offset = start
                throw ScaleError(.nonCanonical, "compact \(v) in 4-byte form at offset \(start)")
            }
            return v
        default:
            let count = Int(first >> 2) + 4
            guard count <= 16 else {
                throw ScaleError(.overflow, "compact of \(count) bytes exceeds u128 at offset \(start)")
            }
            guard count + 1 <= remaining else {
                throw ScaleError(
                    .truncated, "compact needs \(count + 1) bytes at offset \(start), have \(remaining)")
            }
            offset += 1
            let v = try readLE(count)
            // Shortest form: the top byte is non-zero, and values below 2^30 use the smaller modes.
            let topByte = UInt8(truncatingIfNeeded: v >> (8 * (count - 1)))
            guard topByte != 0, v > 0x3FFF_FFFF else {
                offset = start
                throw ScaleError(.nonCanonical, "compact \(v) in \(count)-byte form at offset \(start)")
            }
            return v
        }
    }

    /// Reads a compact integer that must fit `T` (e.g. `Compact<u32>`).
    package mutating func readCompact<T: FixedWidthInteger & UnsignedInteger>(as type: T.Type) throws -> T {
        let start = offset
        let v = try readCompact()
        guard let out = T(exactly: v) else {
            offset = start
            throw ScaleError(.overflow, "compact \(v) does not fit \(T.self) at offset \(start)")
        }
        return out
    }

    /// Reads a compact length prefix and checks that at least `length * minimumElementSize` bytes
    /// are left, before the caller allocates anything.
    package mutating func readLength(minimumElementSize: Int = 1) throws -> Int {
        let start = offset
        let v = try readCompact()
        guard let n = Int(exactly: v), n <= remaining / max(minimumElementSize, 1) else {
            offset = start
            throw ScaleError(
                .lengthTooLarge, "length \(v) at offset \(start) exceeds the \(remaining) byte(s) left")
        }
        return n
    }

    // MARK: composite

    /// Reads `Vec<u8>`: a compact length, then that many bytes.
    package mutating func readByteVector() throws -> [UInt8] {
        let start = offset
        let n = try readLength()
        do { return try readBytes(n) } catch {
            offset = start
            throw error
        }
    }

    /// Reads a `String`: `Vec<u8>` that must be valid UTF-8.
    package mutating func readString() throws -> String {
        let start = offset
        let raw = try readByteVector()
        guard let s = String(validating: raw, as: UTF8.self) else {
            offset = start
            throw ScaleError(.invalidUTF8, "string at offset \(start) is not UTF-8")
        }
        return s
    }

    /// Reads `Vec<T>`, each element with `element`. The length is checked against the bytes left
    /// (every element takes at least `minimumElementSize` bytes) before the array is reserved.
    package mutating func readVector<T>(
        minimumElementSize: Int = 1, _ element: (inout ScaleReader) throws -> T
    ) throws -> [T] {
        let start = offset
        do {
            let n = try readLength(minimumElementSize: minimumElementSize)
            var out: [T] = []
            out.reserveCapacity(n)
            for _ in 0..<n { out.append(try element(&self)) }
            return out
        } catch {
            offset = start
            throw error
        }
    }

    /// Reads a fixed-size array `[T; count]`.
    package mutating func readArray<T>(count: Int, _ element: (inout ScaleReader) throws -> T) throws -> [T] {
        let start = offset
        guard count >= 0, count <= remaining else {
            throw ScaleError(.truncated, "array of \(count) at offset \(start) exceeds the \(remaining) byte(s) left")
        }
        do {
            var out: [T] = []
            out.reserveCapacity(count)
            for _ in 0..<count { out.append(try element(&self)) }
            return out
        } catch {
            offset = start
            throw error
        }
    }

    /// Reads `Option<T>`: `0x00` none, `0x01` then the value.
    package mutating func readOption<T>(_ some: (inout ScaleReader) throws -> T) throws -> T? {
        let start = offset
        let tag = try readByte()
        switch tag {
        case 0: return nil
        case 1:
            do { return try some(&self) } catch {
                offset = start
                throw error
            }
        default:
            offset = start
            throw ScaleError(.invalidVariant, "Option tag \(tag) at offset \(start)")
        }
    }

    /// Reads `Result<T, E>`: `0x00` then ok, `0x01` then err.
    package mutating func readResult<T, E>(
        ok: (inout ScaleReader) throws -> T, err: (inout ScaleReader) throws -> E
    ) throws -> Result<T, ScaleResultError<E>> {
        let start = offset
        let tag = try readByte()
        do {
            switch tag {
            case 0: return .success(try ok(&self))
            case 1: return .failure(ScaleResultError(value: try err(&self)))
            default: throw ScaleError(.invalidVariant, "Result tag \(tag) at offset \(start)")
            }
        } catch {
            offset = start
            throw error
        }
    }

    /// Reads a value with `body`, restoring the cursor if it throws (for tuples and structs).
    package mutating func atomically<T>(_ body: (inout ScaleReader) throws -> T) throws -> T {
        let start = offset
        var copy = self
        do {
            let v = try body(&copy)
            self = copy
            return v
        } catch {
            offset = start
            throw error
        }
    }
}

/// The error side of a decoded SCALE `Result<T, E>` (Swift's `Result` needs an `Error` type).
package struct ScaleResultError<E>: Error {
    /// The decoded error value.
    package let value: E
}

extension ScaleResultError: Sendable where E: Sendable {}
extension ScaleResultError: Equatable where E: Equatable {}
