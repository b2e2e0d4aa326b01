import CSodium
import Keystore
import Primitives

/// The journal's canonical, versioned byte encodings and its hash, exactly as docs/journal.md
/// specifies them (a program in another language recomputes them from that text alone).
///
/// Integers are big-endian and fixed width; `str` and `bytes` are a `u32` length followed by that
/// many bytes (UTF-8 for `str`, never normalised). The hash is BLAKE2b with a 32-byte output, no
/// key (Python: `hashlib.blake2b(data, digest_size=32)`).
package enum JournalCodec {
    /// The encoding version written in every entry and checkpoint.
    package static let version: UInt8 = 1
    /// The first entry's `previousHash`.
    package static let zeroHash = [UInt8](repeating: 0, count: 32)
    package static let entryMagic: [UInt8] = Array("SGJE".utf8)
    package static let checkpointMagic: [UInt8] = Array("SGJC".utf8)

    /// BLAKE2b-256 (libsodium `crypto_generichash`, 32-byte output, no key).
    package static func hash(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBytes { hash($0) }
    }

    /// BLAKE2b-256 of raw memory.
    package static func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        hash(bytes, into: &out)
        return out
    }

    /// BLAKE2b-256 of raw memory into `out` (32 bytes), without allocating.
    package static func hash(_ bytes: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        _ = Primitives.Sodium.ensureInitialized()  // picks libsodium's fastest BLAKE2b
        out.withUnsafeMutableBufferPointer { o in
            guard let base = o.baseAddress, o.count >= 32 else { return }
            _ = crypto_generichash(
                base, 32, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count), nil, 0)
        }
    }

    /// The canonical encoding of an entry (docs/journal.md §2):
    /// `"SGJE" ‖ version u8 ‖ seq u64 ‖ time i64 ‖ previousHash[32] ‖ protocol str ‖ method str ‖
    /// origin str ‖ appName str ‖ account str ‖ decision str ‖ detail str ‖ summaryDigest bytes ‖
    /// subjectDigest bytes ‖ result bytes ‖ shownFlags u8 ‖ shown bytes`.
    package static func entryBytes(seq: UInt64, time: Int64, previousHash: [UInt8], content: JournalEntry.Content)
        -> [UInt8]
    {
        var out: [UInt8] = []
        out.reserveCapacity(160 + content.shown.count + content.result.count)
        out += entryMagic
        out.append(version)
        appendU64(seq, to: &out)
        appendU64(UInt64(bitPattern: time), to: &out)
        out += previousHash
        appendString(content.protocolName, to: &out)
        appendString(content.method, to: &out)
        appendString(content.origin, to: &out)
        appendString(content.appName, to: &out)
        appendString(content.account, to: &out)
        appendString(content.decision, to: &out)
        appendString(content.detail, to: &out)
        appendBytes(content.summaryDigest, to: &out)
        appendBytes(content.subjectDigest, to: &out)
        appendBytes(content.result, to: &out)
        out.append(content.shownTruncated ? 1 : 0)
        appendBytes(content.shown, to: &out)
        return out
    }

    /// The signed bytes of a checkpoint (docs/journal.md §4):
    /// `"SGJC" ‖ version u8 ‖ number u64 ‖ seq u64 ‖ head[32] ‖ time i64 ‖ key[32]`.
    package static func checkpointBytes(number: UInt64, seq: UInt64, head: [UInt8], time: Int64, key: [UInt8])
        -> [UInt8]
    {
        var out = checkpointMagic
        out.append(version)
        appendU64(number, to: &out)
        appendU64(seq, to: &out)
        out += head
        appendU64(UInt64(bitPattern: time), to: &out)
        out += key
        return out
    }

    package static func appendU32(_ value: UInt32, to out: inout [UInt8]) {
        out.append(UInt8(truncatingIfNeeded: value >> 24))
        out.append(UInt8(truncatingIfNeeded: value >> 16))
        out.append(UInt8(truncatingIfNeeded: value >> 8))
        out.append(UInt8(truncatingIfNeeded: value))
    }

    package static func appendU64(_ value: UInt64, to out: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) {
            out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    package static func appendString(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendBytes(UnsafeRawBufferPointer($0), to: &out) }
    }

    package static func appendBytes(_ bytes: [UInt8], to out: inout [UInt8]) {
        appendU32(UInt32(truncatingIfNeeded: bytes.count), to: &out)
        out += bytes
    }

    package static func appendBytes(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        appendU32(UInt32(truncatingIfNeeded: bytes.count), to: &out)
        out.append(contentsOf: bytes)
    }

    /// Reads the encodings back (shown rows).
    package struct Reader {
        private let bytes: [UInt8]
        private var offset = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        var isAtEnd: Bool { offset == bytes.count }

        mutating func u8() throws(JournalError) -> UInt8 {
            guard offset < bytes.count else { throw JournalError(.malformedFile, "journal encoding: too short") }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func u32() throws(JournalError) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 { value = value << 8 | UInt32(try u8()) }
            return value
        }

        mutating func string() throws(JournalError) -> String {
            let count = Int(try u32())
            guard count <= bytes.count - offset else {
                throw JournalError(.malformedFile, "journal encoding: a length runs past the end")
            }
            let slice = bytes[offset..<offset + count]
            offset += count
            guard let text = String(validating: slice, as: UTF8.self) else {
                throw JournalError(.malformedFile, "journal encoding: text is not UTF-8")
            }
            return text
        }
    }
}
