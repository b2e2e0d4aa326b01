/// CRC-32/ISO-HDLC (zlib's: polynomial 0x04C11DB7 reflected, init and final xor 0xFFFFFFFF; check
/// value of "123456789" is 0xCBF43926), as principal texts and account identifiers use it.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ data: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    /// The checksum as four big-endian bytes (how the IC stores it in front of the data).
    static func bigEndian(_ data: some Sequence<UInt8>) -> [UInt8] {
        let c = checksum(data)
        return [
            UInt8(truncatingIfNeeded: c >> 24), UInt8(truncatingIfNeeded: c >> 16), UInt8(truncatingIfNeeded: c >> 8),
            UInt8(truncatingIfNeeded: c),
        ]
    }
}
