import Testing

@testable import GatewayHTTP

/// The bitmask classes against their definitions, for every byte value.
struct ByteClassTests {
    @Test(arguments: 0...255)
    func eachByteIsClassifiedAsRFC9110Says(value: Int) throws {
        let byte = try #require(UInt8(exactly: value))
        let alphaNumeric =
            (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
        let tchar = alphaNumeric || Array("!#$%&'*+-.^_`|~".utf8).contains(byte)  // RFC 9110 §5.6.2
        let fieldOctet = value == 0x09 || (0x20...0x7E).contains(value) || value >= 0x80  // §5.5, obs-text
        #expect(ByteClass.isToken(byte) == tchar)
        #expect(ByteClass.isFieldValue(byte) == fieldOctet)
        #expect(ByteClass.isTarget(byte) == (0x21...0x7E).contains(value))
    }
}
