import Testing

@testable import SigningKeys

@Suite struct BytesWrappingTests {
    @Test(arguments: Vectors.ids("wrap-bytes.json"))
    func wrappingFollowsPolkadotJs(id: String) throws {
        let v = try Vectors.entry("wrap-bytes.json", id)
        let bytes = BytesWrapping.bytes(fromDappData: try v.string("input"))
        #expect(bytes == (try v.hex("input_bytes")))
        let wrapped = BytesWrapping.wrap(bytes)
        #expect(wrapped == (try v.hex("wrapped")))
        #expect((wrapped == bytes) == (try v.bool("unchanged")))
        #expect(BytesWrapping.wrap(wrapped) == wrapped)
    }

    @Test func unwrapRemovesMarkersOnlyWhenBothPresent() {
        #expect(BytesWrapping.unwrap(Array("<Bytes>hi</Bytes>".utf8)) == Array("hi".utf8))
        #expect(BytesWrapping.unwrap(Array("<Bytes>hi".utf8)) == Array("<Bytes>hi".utf8))
        #expect(BytesWrapping.unwrap([]) == [])
    }
}
