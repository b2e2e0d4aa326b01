/// Appends SCALE encodings (parity-scale-codec wire format) to a byte buffer.
///
/// Deterministic: the same calls give the same bytes. Integers are written little-endian
/// explicitly, whatever the host; compact integers in their shortest form.
package struct ScaleWriter: Sendable {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8]

    /// Creates an empty writer.
    package init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Encodes with `body` and returns the bytes.
    package static func encode(_ body: (inout ScaleWriter) throws -> Void) rethrows -> [UInt8] {
        var w = ScaleWriter()
        try body(&w)
        return w.bytes
    }

    /// Appends raw bytes (no length prefix).
    package mutating func write<S: Sequence>(raw: S) where S.Element == UInt8 { bytes.append(contentsOf: raw) }
    /// Appends one byte.
    package mutating func writeByte(_ b: UInt8) { bytes.append(b) }

    private mutating func writeLE(_ v: UInt128, width: Int) {
        for i in 0..<width { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * i))) }
    }

    /// Appends a `u8`.
    package mutating func writeU8(_ v: UInt8) { bytes.append(v) }
    /// Appends a little-endian `u16`.
    package mutating func writeU16(_ v: UInt16) { writeLE(UInt128(v), width: 2) }
    /// Appends a little-endian `u32`.
    package mutating func writeU32(_ v: UInt32) { writeLE(UInt128(v), width: 4) }
    /// Appends a little-endian `u64`.
    package mutating func writeU64(_ v: UInt64) { writeLE(UInt128(v), width: 8) }
    /// Appends a little-endian `u128`.
    package mutating func writeU128(_ v: UInt128) { writeLE(v, width: 16) }
    /// Appends a little-endian `u256`.
    package mutating func writeU256(_ v: UInt256) {
        writeLE(v.low, width: 16)
        writeLE(v.high, width: 16)
    }
    /// Appends a little-endian two's-complement `i8`.
    package mutating func writeI8(_ v: Int8) { bytes.append(UInt8(bitPattern: v)) }
    /// Appends a little-endian two's-complement `i16`.
    package mutating func writeI16(_ v: Int16) { writeU16(UInt16(bitPattern: v)) }
    /// Appends a little-endian two's-complement `i32`.
    package mutating func writeI32(_ v: Int32) { writeU32(UInt32(bitPattern: v)) }
    /// Appends a little-endian two's-complement `i64`.
    package mutating func writeI64(_ v: Int64) { writeU64(UInt64(bitPattern: v)) }
    /// Appends a little-endian two's-complement `i128`.
    package mutating func writeI128(_ v: Int128) { writeU128(UInt128(bitPattern: v)) }
    /// Appends a bool as `0x00`/`0x01`.
    package mutating func writeBool(_ v: Bool) { bytes.append(v ? 1 : 0) }

    /// Appends a compact integer in its shortest form (docs/reference/polkadot-extension.md §2.4 "SCALE compact").
    package mutating func writeCompact(_ v: UInt128) {
        if v < 1 << 6 {
            bytes.append(UInt8(truncatingIfNeeded: v << 2))
        } else if v < 1 << 14 {
            writeLE((v << 2) | 1, width: 2)
        } else if v < 1 << 30 {
            writeLE((v << 2) | 2, width: 4)
        } else {
            var n = 0
            var t = v
            while t > 0 {
                n += 1
                t >>= 8
            }
            bytes.append(UInt8(truncatingIfNeeded: ((n - 4) << 2) | 3))
            writeLE(v, width: n)
        }
    }

    /// Appends a compact integer.
    package mutating func writeCompact<T: UnsignedInteger>(_ v: T) { writeCompact(UInt128(truncatingIfNeeded: v)) }

    /// Appends `Vec<u8>`: compact length, then the bytes.
    package mutating func writeByteVector(_ v: [UInt8]) {
        writeCompact(UInt128(v.count))
        bytes.append(contentsOf: v)
    }

    /// Appends a `String` as UTF-8 `Vec<u8>`.
    package mutating func writeString(_ s: String) { writeByteVector(Array(s.utf8)) }

    /// Appends `Vec<T>`: compact length, then each element.
    package mutating func writeVector<T>(_ items: [T], _ element: (inout ScaleWriter, T) throws -> Void) rethrows {
        writeCompact(UInt128(items.count))
        for item in items { try element(&self, item) }
    }

    /// Appends `Option<T>`.
    package mutating func writeOption<T>(_ value: T?, _ some: (inout ScaleWriter, T) throws -> Void) rethrows {
        if let value {
            bytes.append(1)
            try some(&self, value)
        } else {
            bytes.append(0)
        }
    }
}
