import Primitives
import SigningKeys

/// ABI decoding of transaction calldata for display (docs/reference/ethereum.md §8.4): the ERC-20,
/// ERC-721 and ERC-1155 calls a wallet should put in words; anything else is a selector and bytes.
///
/// Strict: a known selector whose arguments do not decode exactly (address words with non-zero upper
/// bytes, bool other than 0/1, a static call with a length other than 4 + 32·k, offsets or lengths
/// outside the data, trailing bytes) throws, so the caller shows raw bytes with a warning rather
/// than a misleading sentence. Selectors collide across standards (`transferFrom`, `approve`,
/// `setApprovalForAll`), so the names here say what the words are, not which standard the contract
/// implements. Linear: every length is checked against the bytes present before anything is read.
package enum Calldata {
    /// One decoded argument.
    package enum Value: Sendable, Hashable {
        case address(EthereumAddress)
        case uint(UInt256)
        case bool(Bool)
        case bytes([UInt8])
        case uintArray([UInt256])
    }

    /// A known function and its named arguments.
    package struct Call: Sendable, Hashable {
        /// The canonical signature, e.g. `transfer(address,uint256)`.
        package let signature: String
        /// The function name, e.g. `transfer`.
        package let name: String
        package let arguments: [(name: String, value: Value)]

        package static func == (a: Call, b: Call) -> Bool {
            a.signature == b.signature && a.arguments.map(\.name) == b.arguments.map(\.name)
                && a.arguments.map(\.value) == b.arguments.map(\.value)
        }

        package func hash(into h: inout Hasher) { h.combine(signature) }
    }

    /// What `decode` found.
    package enum Decoded: Sendable, Hashable {
        /// No calldata (a plain transfer of ether).
        case empty
        /// A known call.
        case known(Call)
        /// An unknown selector (or fewer than 4 bytes: then `selector` is all of them).
        case unknown(selector: [UInt8], arguments: [UInt8])
    }

    enum Kind { case address, uint, bool, bytes, uintArray }

    /// The functions known, with argument names: (signature, names, kinds).
    static let functions: [(String, [String], [Kind])] = [
        ("transfer(address,uint256)", ["to", "amount"], [.address, .uint]),
        ("approve(address,uint256)", ["spender", "amount"], [.address, .uint]),
        ("transferFrom(address,address,uint256)", ["from", "to", "amountOrTokenId"], [.address, .address, .uint]),
        ("safeTransferFrom(address,address,uint256)", ["from", "to", "tokenId"], [.address, .address, .uint]),
        (
            "safeTransferFrom(address,address,uint256,bytes)", ["from", "to", "tokenId", "data"],
            [.address, .address, .uint, .bytes]
        ),
        ("setApprovalForAll(address,bool)", ["operator", "approved"], [.address, .bool]),
        (
            "safeTransferFrom(address,address,uint256,uint256,bytes)", ["from", "to", "id", "amount", "data"],
            [.address, .address, .uint, .uint, .bytes]
        ),
        (
            "safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)",
            ["from", "to", "ids", "amounts", "data"],
            [.address, .address, .uintArray, .uintArray, .bytes]
        ),
    ]

    static let bySelector: [[UInt8]: (String, [String], [Kind])] = {
        var table: [[UInt8]: (String, [String], [Kind])] = [:]
        for f in functions { table[selector(f.0)] = f }
        return table
    }()

    /// keccak256(signature)[0..<4].
    package static func selector(_ signature: String) -> [UInt8] {
        Array(Keccak256.hash(Array(signature.utf8)).prefix(4))
    }

    /// Decodes calldata. - Throws: `EthereumCodecError` (`.invalidValue`, `.truncated`,
    /// `.trailingBytes`, `.tooLarge`) with the offset, for a known selector whose arguments are malformed.
    package static func decode(_ data: [UInt8]) throws(EthereumCodecError) -> Decoded {
        if data.isEmpty { return .empty }
        guard data.count >= 4 else { return .unknown(selector: data, arguments: []) }
        let sel = Array(data[0..<4])
        guard let (signature, names, kinds) = bySelector[sel] else {
            return .unknown(selector: sel, arguments: Array(data[4...]))
        }
        let args = Array(data[4...])
        let isStatic = kinds.allSatisfy { $0 != .bytes && $0 != .uintArray }
        guard args.count % 32 == 0 || !isStatic else {
            throw EthereumCodecError(.invalidValue, at: 4, field: signature, "arguments are not whole 32-byte words")
        }
        guard args.count >= 32 * kinds.count else {
            throw EthereumCodecError(.truncated, at: 4 + args.count, field: signature, "fewer words than arguments")
        }
        if isStatic && args.count != 32 * kinds.count {
            throw EthereumCodecError(
                .trailingBytes, at: 4 + 32 * kinds.count, field: signature, "bytes after the arguments")
        }
        var values: [(name: String, value: Value)] = []
        var tailEnd = 32 * kinds.count
        for (i, kind) in kinds.enumerated() {
            let head = 32 * i
            let word = Array(args[head..<(head + 32)])
            let value: Value
            switch kind {
            case .address:
                guard word[0..<12].allSatisfy({ $0 == 0 }) else {
                    throw EthereumCodecError(
                        .invalidValue, at: 4 + head, field: names[i], "address word with upper bytes")
                }
                value = .address(EthereumAddress(uncheckedBytes: Array(word[12...])))
            case .uint:
                value = .uint(UInt256(bigEndianBytes: word) ?? .zero)
            case .bool:
                guard word[0..<31].allSatisfy({ $0 == 0 }), word[31] <= 1 else {
                    throw EthereumCodecError(.invalidValue, at: 4 + head, field: names[i], "bool word is not 0 or 1")
                }
                value = .bool(word[31] == 1)
            case .bytes, .uintArray:
                let offset = try Self.offset(word, args.count, at: 4 + head, field: names[i])
                let length = try Self.offset(
                    Array(args[offset..<(offset + 32)]), args.count, at: 4 + offset, field: names[i])
                let start = offset + 32
                let byteLength = kind == .bytes ? length : length * 32
                guard length <= args.count, byteLength <= args.count - start else {
                    throw EthereumCodecError(
                        .truncated, at: 4 + start, field: names[i], "\(names[i]) runs past the data")
                }
                if kind == .bytes {
                    value = .bytes(Array(args[start..<(start + length)]))
                    tailEnd = max(tailEnd, start + (length + 31) / 32 * 32)
                } else {
                    var items = [UInt256]()
                    items.reserveCapacity(length)
                    for j in 0..<length {
                        items.append(UInt256(bigEndianBytes: args[(start + 32 * j)..<(start + 32 * j + 32)]) ?? .zero)
                    }
                    value = .uintArray(items)
                    tailEnd = max(tailEnd, start + byteLength)
                }
            }
            values.append((names[i], value))
        }
        guard tailEnd >= args.count else {
            throw EthereumCodecError(.trailingBytes, at: 4 + tailEnd, field: signature, "bytes after the arguments")
        }
        let name = String(signature.prefix { $0 != "(" })
        return .known(Call(signature: signature, name: name, arguments: values))
    }

    /// A head word read as an offset (or a length) that leaves room for a 32-byte word in `count` bytes.
    static func offset(_ word: [UInt8], _ count: Int, at position: Int, field: String) throws(EthereumCodecError) -> Int
    {
        guard let v = UInt256(bigEndianBytes: word)?.uint64, v <= UInt64(count), let o = Int(exactly: v),
            o <= count - 32
        else { throw EthereumCodecError(.tooLarge, at: position, field: field, "offset or length beyond the data") }
        return o
    }
}
