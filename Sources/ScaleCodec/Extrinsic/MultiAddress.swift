import Primitives
/// `sp_runtime::MultiAddress<AccountId32, AccountIndex>`: how a signed extrinsic names its signer.
///
/// Variants (SCALE indices): `0 Id(AccountId32)`, `1 Index(Compact<u32>)`, `2 Raw(Vec<u8>)`,
/// `3 Address32([u8; 32])`, `4 Address20([u8; 20])`. A signer uses `.id`.
package enum MultiAddress: Hashable, Sendable {
    case id([UInt8])
    case index(UInt32)
    case raw([UInt8])
    case address32([UInt8])
    case address20([UInt8])

    /// Creates `.id`, checking the account id is 32 bytes.
    package static func account(_ accountId: [UInt8]) throws -> MultiAddress {
        guard accountId.count == 32 else {
            throw ScaleError(.invalidLength, "AccountId32 must be 32 bytes, got \(accountId.count)")
        }
        return .id(accountId)
    }

    /// Reads a MultiAddress.
    package init(from reader: inout ScaleReader) throws {
        self = try reader.atomically { r in
            let start = r.offset
            let tag = try r.readByte()
            switch tag {
            case 0: return .id(try r.readBytes(32))
            case 1: return .index(try r.readCompact(as: UInt32.self))
            case 2: return .raw(try r.readByteVector())
            case 3: return .address32(try r.readBytes(32))
            case 4: return .address20(try r.readBytes(20))
            default: throw ScaleError(.invalidVariant, "MultiAddress variant \(tag) at offset \(start)")
            }
        }
    }

    /// Appends the SCALE encoding.
    package func encode(to writer: inout ScaleWriter) {
        switch self {
        case .id(let b):
            writer.writeByte(0)
            writer.write(raw: b)
        case .index(let i):
            writer.writeByte(1)
            writer.writeCompact(i)
        case .raw(let b):
            writer.writeByte(2)
            writer.writeByteVector(b)
        case .address32(let b):
            writer.writeByte(3)
            writer.write(raw: b)
        case .address20(let b):
            writer.writeByte(4)
            writer.write(raw: b)
        }
    }
}
