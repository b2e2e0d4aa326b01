import Primitives
import Testing

@testable import SigningKeys

@Suite struct SS58Tests {
    static func code(_ name: String) -> KeyError.Code? {
        switch name {
        case "BadBase58": .badBase58
        case "BadLength": .badLength
        case "InvalidPrefix": .invalidPrefix
        case "FormatNotAllowed": .formatNotAllowed
        case "InvalidChecksum": .invalidChecksum
        case "ReservedOrOutOfRange": .prefixOutOfRange
        default: nil
        }
    }

    @Test(arguments: Vectors.ids("ss58.json") { $0["kind"] as? String == "encode" && $0["expect_error"] == nil })
    func encodingMatchesTheVector(id: String) throws {
        let v = try Vectors.entry("ss58.json", id)
        let prefix = try #require(UInt16(exactly: try v.int("prefix")))
        #expect(try SS58.encode(try v.hex("public_key"), prefix: prefix) == (try v.string("address")))
        #expect(SS58.prefixBytes(prefix) == (try v.hex("prefix_bytes")))
    }

    @Test(arguments: Vectors.ids("ss58.json") { $0["kind"] as? String == "encode" && $0["expect_error"] != nil })
    func encodingRejectsReservedAndOutOfRangePrefixes(id: String) throws {
        let v = try Vectors.entry("ss58.json", id)
        let prefix = try #require(UInt16(exactly: try v.int("prefix")))
        let expected = try #require(Self.code(try v.string("expect_error")))
        #expect(throws: KeyError(expected, "")) { try SS58.encode(try v.hex("public_key"), prefix: prefix) }
    }

    @Test(arguments: Vectors.ids("ss58.json") { $0["kind"] as? String == "decode" && $0["expect_error"] == nil })
    func decodingValidAddressesGivesKeyAndPrefix(id: String) throws {
        let v = try Vectors.entry("ss58.json", id)
        let decoded = try SS58.decode(try v.string("address"), keyLength: try v.int("key_length"))
        #expect(decoded.key == (try v.hex("public_key")))
        #expect(Int(decoded.prefix) == (try v.int("prefix")))
        #expect(decoded.prefixLength == (try v.int("prefix_length")))
    }

    @Test(arguments: Vectors.ids("ss58.json") { $0["kind"] as? String == "decode" && $0["expect_error"] != nil })
    func decodingInvalidAddressesFailsWithSpCoreErrorKind(id: String) throws {
        let v = try Vectors.entry("ss58.json", id)
        let expected = try #require(Self.code(try v.string("expect_error")))
        #expect(throws: KeyError(expected, "")) {
            try SS58.decode(try v.string("address"), keyLength: try v.int("key_length"))
        }
    }

    @Test func everyPrefixRoundTrips() throws {
        let key = (0..<32).map { UInt8($0) }
        for prefix in UInt16(0)...16383 where prefix != 46 && prefix != 47 {
            let address = try SS58.encode(key, prefix: prefix)
            let decoded = try SS58.decode(address)
            #expect(decoded.prefix == prefix && decoded.key == key)
        }
    }

    @Test func oversizedAndGarbageInputIsRejectedWithoutTrapping() {
        #expect(throws: KeyError(.badLength, "")) { try SS58.decode(String(repeating: "5", count: 10_000)) }
        #expect(throws: KeyError(.badBase58, "")) { try SS58.decode("héllo") }
        #expect(throws: KeyError(.badLength, "")) { try SS58.decode("1") }
        #expect(throws: KeyError(.badLength, "")) { try SS58.encode([1, 2, 3], prefix: 0) }
    }
}

/// Base58 against the textbook digit-by-digit conversion (kept here as the reference): the same
/// text for every byte string (leading zeros, all zeros, lengths around the limb sizes), and
/// decoding gives the bytes back.
@Suite struct Base58Tests {
    static func referenceEncode(_ bytes: [UInt8]) -> String {
        let zeros = bytes.prefix { $0 == 0 }.count
        var digits = [UInt8]()
        for byte in bytes[zeros...] {
            var carry = Int(byte)
            for i in digits.indices {
                carry += Int(digits[i]) << 8
                digits[i] = UInt8(carry % 58)
                carry /= 58
            }
            while carry > 0 {
                digits.append(UInt8(carry % 58))
                carry /= 58
            }
        }
        return String(repeating: "1", count: zeros)
            + String(decoding: digits.reversed().map { Base58.alphabet[Int($0)] }, as: UTF8.self)
    }

    @Test(arguments: [0, 1, 2, 3, 4, 5, 6, 7, 31, 32, 33, 34, 35, 36, 64, 65, 100])
    func agreesWithTheReferenceAndRoundTrips(length: Int) throws {
        var generator = SystemRandomNumberGenerator()
        var samples: [[UInt8]] = [
            [UInt8](repeating: 0, count: length), [UInt8](repeating: 0xFF, count: length),
            (0..<length).map { $0 < 2 ? 0 : UInt8(truncatingIfNeeded: $0 &* 31) },
        ]
        for _ in 0..<20 { samples.append((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }) }
        for bytes in samples {
            let text = Base58.encode(bytes)
            #expect(text == Self.referenceEncode(bytes), "\(bytes)")
            #expect(Base58.decode(text) == bytes, "\(text)")
        }
    }

    @Test(arguments: ["0", "O", "I", "l", "1110", "abc+", "é"])
    func refusesCharactersOutsideTheAlphabet(text: String) {
        #expect(Base58.decode(text) == nil)
    }
}
