/// Shortest LEB128 encodings (request-id hashing of nats and ints; Candid lengths and numbers).
enum LEB128 {
    static func unsigned(_ value: UInt64) -> [UInt8] {
        var v = value
        var out: [UInt8] = []
        repeat {
            var byte = UInt8(v & 0x7f)
            v >>= 7
            if v != 0 { byte |= 0x80 }
            out.append(byte)
        } while v != 0
        return out
    }

    static func signed(_ value: Int64) -> [UInt8] {
        var v = value
        var out: [UInt8] = []
        while true {
            let byte = UInt8(truncatingIfNeeded: v & 0x7f)
            v >>= 7
            let signBit = byte & 0x40 != 0
            if (v == 0 && !signBit) || (v == -1 && signBit) {
                out.append(byte)
                return out
            }
            out.append(byte | 0x80)
        }
    }
}
