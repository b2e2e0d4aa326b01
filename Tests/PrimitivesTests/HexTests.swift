import Primitives
import Testing

@Suite struct HexTests {
    @Test(arguments: [
        ("0x00ff", Hex.Prefix.required, [0x00, 0xFF] as [UInt8]?),
        ("0xABcd", .required, [0xAB, 0xCD]),
        ("0x", .required, []),
        ("00ff", .required, nil),
        ("0X00", .required, nil),
        ("0x0", .required, nil),
        ("0x0g", .required, nil),
        ("00ff", .optional, [0x00, 0xFF]),
        ("0x00ff", .optional, [0x00, 0xFF]),
        ("0x00ff", .forbidden, nil),
        ("00ff", .forbidden, [0x00, 0xFF]),
        ("é0", .optional, nil),
    ])
    func decodes(text: String, prefix: Hex.Prefix, expected: [UInt8]?) {
        #expect((try? Hex.decode(text, prefix: prefix)) == expected)
        #expect(Hex.isValid(text, prefix: prefix) == (expected != nil))
    }

    @Test func encodesLowerCase() throws {
        #expect(Hex.encode([0xAB, 0x01]) == "0xab01")
        #expect(Hex.encode([0xAB], prefix: false) == "ab")
        #expect(throws: PrimitivesError(.hexWrongLength, "")) {
            try Hex.decode("0x00", prefix: .required, byteCount: 2)
        }
        #expect(Hex.isValid("0x" + String(repeating: "0", count: 64), prefix: .required, byteCount: 32))
    }

    /// Every input shape gives the same text: contiguous ones (arrays, slices) take the buffer path,
    /// others (a lazy map) the copying one.
    @Test(arguments: [[], [0x00], [0x01, 0xAB, 0xFF, 0x10], Array(0...255)] as [[UInt8]])
    func encodesEveryInputShapeAlike(bytes: [UInt8]) throws {
        let digits = Array("0123456789abcdef")
        let expected = "0x" + String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
        #expect(Hex.encode(bytes) == expected)
        #expect(Hex.encode(bytes[...]) == expected)
        #expect(Hex.encode(bytes.lazy.map { $0 }) == expected)
        #expect(Hex.encode(bytes, prefix: false) == String(expected.dropFirst(2)))
        #expect(try Hex.decode(expected, prefix: .required) == bytes)
        #expect(try Hex.decode(("x" + expected).dropFirst(), prefix: .required) == bytes)
    }

    /// Errors name the first bad digit's offset in the text (prefix included), for strings and substrings.
    @Test(arguments: [
        ("0x0g", Hex.Prefix.required, PrimitivesError.Code.hexInvalidDigit, 3),
        ("0xg0", .required, .hexInvalidDigit, 2),
        ("zz", .optional, .hexInvalidDigit, 0),
        ("00 1", .forbidden, .hexInvalidDigit, 2),
        ("0x123", .required, .hexOddLength, 0),
        ("123", .optional, .hexOddLength, 0),
        ("12", .required, .hexPrefix, 0),
        ("0x12", .forbidden, .hexPrefix, 0),
    ])
    func reportsTheFirstProblemWithItsOffset(text: String, prefix: Hex.Prefix, code: PrimitivesError.Code, offset: Int)
    {
        func check(_ input: some StringProtocol) {
            do {
                _ = try Hex.decode(input, prefix: prefix)
                Issue.record("\(input) decoded")
            } catch {
                #expect(error.code == code)
                if code == .hexInvalidDigit { #expect(error.offset == offset) }
            }
        }
        check(text)
        check(("ab" + text).dropFirst(2))
        #expect(!Hex.isValid(text, prefix: prefix))
    }

    @Test func secretBytesNeverShowTheirContents() throws {
        let secret = try Hex.decodeSecret("0x0102", prefix: .required)
        #expect("\(secret)" == "SecretBytes(2 bytes, redacted)")
        #expect(String(reflecting: secret) == "SecretBytes(2 bytes, redacted)")
        #expect(secret == SecretBytes([1, 2]))
        #expect(secret != SecretBytes([1, 3]))
        #expect(secret.constantTimeEquals([1, 2]))
        #expect(secret.slice(1..<2) == SecretBytes([2]))
        #expect(SecretBytes.concatenating([secret, SecretBytes([3])]) == SecretBytes([1, 2, 3]))
        #expect(SecretBytes.random(count: 32).count == 32)
    }
}
