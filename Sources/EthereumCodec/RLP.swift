import Primitives

/// One RLP item (docs/reference/ethereum.md §8.1): a byte string or a list of items.
package indirect enum RLPItem: Sendable, Hashable {
    case bytes([UInt8])
    case list([RLPItem])

    /// An unsigned integer as RLP writes it: minimal big-endian bytes, zero as the empty string.
    package static func uint(_ value: UInt256) -> RLPItem { .bytes(value.minimalBytes) }
    /// An unsigned 64-bit integer in the same form.
    package static func uint(_ value: UInt64) -> RLPItem { .uint(UInt256(value)) }

    /// The byte string, or `wrongType` naming `field`.
    func byteString(_ field: String) throws(EthereumCodecError) -> [UInt8] {
        guard case .bytes(let b) = self else { throw EthereumCodecError(.wrongType, field: field, "a list, not bytes") }
        return b
    }

    /// The list, or `wrongType` naming `field`.
    func items(_ field: String) throws(EthereumCodecError) -> [RLPItem] {
        guard case .list(let l) = self else { throw EthereumCodecError(.wrongType, field: field, "bytes, not a list") }
        return l
    }

    /// An integer field: no leading zero byte (a zero is the empty string), at most `maxBytes` bytes.
    func integer(_ field: String, maxBytes: Int = 32) throws(EthereumCodecError) -> UInt256 {
        let b = try byteString(field)
        guard b.first != 0 else {
            throw EthereumCodecError(.nonCanonical, field: field, "integer with a leading zero byte")
        }
        guard b.count <= maxBytes, let value = UInt256(bigEndianBytes: b) else {
            throw EthereumCodecError(.outOfRange, field: field, "integer wider than \(maxBytes * 8) bits")
        }
        return value
    }

    /// A 64-bit integer field (nonce, gas, chain id; EIP-2681).
    func uint64(_ field: String) throws(EthereumCodecError) -> UInt64 {
        guard let v = try integer(field, maxBytes: 8).uint64 else {
            throw EthereumCodecError(.outOfRange, field: field, "wider than 64 bits")
        }
        return v
    }
}

/// Recursive Length Prefix encoding and a strict decoder (docs/reference/ethereum.md §8.1).
///
/// The decoder takes untrusted bytes: it runs in one pass (each byte read once; lists are decoded
/// in place, never copied), recurses at most `maxDepth` lists deep, checks every announced length
/// against the bytes that remain before reading, and refuses every non-canonical form (a single
/// byte below 0x80 wrapped as a string, the long form for a short payload, a length with a leading
/// zero), truncation and trailing bytes, each with the offset.
package enum RLP {
    /// Default nesting bound: transactions need 3 levels (access lists), 16 leaves room.
    package static let defaultMaxDepth = 16

    /// Encodes an item.
    package static func encode(_ item: RLPItem) -> [UInt8] {
        var out = [UInt8]()
        append(item, to: &out)
        return out
    }

    static func append(_ item: RLPItem, to out: inout [UInt8]) {
        switch item {
        case .bytes(let b):
            if b.count == 1, b[0] < 0x80 {
                out.append(b[0])
            } else {
                appendHeader(b.count, short: 0x80, long: 0xb7, to: &out)
                out.append(contentsOf: b)
            }
        case .list(let items):
            var payload = [UInt8]()
            for i in items { append(i, to: &payload) }
            appendHeader(payload.count, short: 0xc0, long: 0xf7, to: &out)
            out.append(contentsOf: payload)
        }
    }

    static func appendHeader(_ length: Int, short: UInt8, long: UInt8, to out: inout [UInt8]) {
        if length <= 55 {
            out.append(short + UInt8(truncatingIfNeeded: length))
        } else {
            let lengthBytes = UInt256(UInt64(truncatingIfNeeded: length)).minimalBytes
            out.append(long + UInt8(truncatingIfNeeded: lengthBytes.count))
            out.append(contentsOf: lengthBytes)
        }
    }

    /// Decodes exactly one item that spans all of `bytes`.
    /// - Throws: `EthereumCodecError` `.truncated`, `.trailingBytes`, `.nonCanonical`, `.tooDeep`,
    ///   `.tooLarge`, each with the offset.
    package static func decode(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(EthereumCodecError) -> RLPItem
    {
        var position = 0
        let item = try decodeItem(bytes, &position, end: bytes.count, depth: 0, maxDepth: maxDepth)
        guard position == bytes.count else {
            throw EthereumCodecError(.trailingBytes, at: position, "\(bytes.count - position) bytes after the item")
        }
        return item
    }

    static func decodeItem(
        _ bytes: [UInt8], _ position: inout Int, end: Int, depth: Int, maxDepth: Int
    ) throws(EthereumCodecError) -> RLPItem {
        let start = position
        guard position < end else { throw EthereumCodecError(.truncated, at: position, "an item is missing") }
        let prefix = bytes[position]
        position += 1
        switch prefix {
        case 0x00...0x7f:
            return .bytes([prefix])
        case 0x80...0xbf:
            let length = try payloadLength(prefix, short: 0x80, long: 0xb7, bytes, &position, end: end, start: start)
            let payload = Array(bytes[position..<(position + length)])
            if length == 1, payload[0] < 0x80 {
                throw EthereumCodecError(.nonCanonical, at: start, "a single byte below 0x80 written as a string")
            }
            position += length
            return .bytes(payload)
        default:
            guard depth < maxDepth else {
                throw EthereumCodecError(.tooDeep, at: start, "lists nested deeper than \(maxDepth)")
            }
            let length = try payloadLength(prefix, short: 0xc0, long: 0xf7, bytes, &position, end: end, start: start)
            let listEnd = position + length
            var items = [RLPItem]()
            while position < listEnd {
                items.append(try decodeItem(bytes, &position, end: listEnd, depth: depth + 1, maxDepth: maxDepth))
            }
            return .list(items)
        }
    }

    /// Reads the length that follows `prefix` and checks that the payload fits before `end`.
    static func payloadLength(
        _ prefix: UInt8, short: UInt8, long: UInt8, _ bytes: [UInt8], _ position: inout Int, end: Int, start: Int
    ) throws(EthereumCodecError) -> Int {
        var length: Int
        if prefix <= long {
            length = Int(prefix - short)
        } else {
            let count = Int(prefix - long)
            guard count <= 7 else { throw EthereumCodecError(.tooLarge, at: start, "length of \(count) bytes") }
            guard end - position >= count else {
                throw EthereumCodecError(.truncated, at: position, "the length bytes are cut off")
            }
            guard bytes[position] != 0 else {
                throw EthereumCodecError(.nonCanonical, at: position, "length with a leading zero byte")
            }
            length = 0
            for _ in 0..<count {
                length = length << 8 | Int(bytes[position])
                position += 1
            }
            guard length > 55 else {
                throw EthereumCodecError(.nonCanonical, at: start, "long form for a payload of \(length) bytes")
            }
        }
        guard length <= end - position else {
            throw EthereumCodecError(.truncated, at: position, "payload of \(length) bytes, \(end - position) remain")
        }
        return length
    }
}
