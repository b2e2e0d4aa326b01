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
        #expect(throws: PrimitivesError(.hexWrongLength, "")) { try Hex.decode("0x00", prefix: .required, byteCount: 2) }
        #expect(Hex.isValid("0x" + String(repeating: "0", count: 64), prefix: .required, byteCount: 32))
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
