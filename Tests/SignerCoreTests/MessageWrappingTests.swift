import Testing

@testable import SignerCore

@Suite struct MessageWrappingTests {
    // docs/reference/polkadot-extension.md §5.4; polkadot-js/common util/src/u8a/wrap.spec.ts.
    @Test(arguments: [
        ("0x68656c6c6f", "<Bytes>hello</Bytes>"),
        ("hello", "<Bytes>hello</Bytes>"),
        ("0x3c42797465733e68656c6c6f3c2f42797465733e", "<Bytes>hello</Bytes>"),
        ("<Bytes>hello</Bytes>", "<Bytes>hello</Bytes>"),
        ("0x", "<Bytes></Bytes>"),
        ("0x123", "<Bytes>0x123</Bytes>"),
        ("0xzz", "<Bytes>0xzz</Bytes>"),
        ("<Bytes>hello", "<Bytes><Bytes>hello</Bytes>"),
        ("\u{19}Ethereum Signed Message:\n5hello", "\u{19}Ethereum Signed Message:\n5hello"),
    ])
    func dataIsWrappedLikePolkadotJs(data: String, signed: String) {
        #expect(MessageWrapping.wrap(MessageWrapping.bytes(ofData: data)) == Array(signed.utf8))
    }

    @Test func textIsShownOnlyWhenPrintable() {
        #expect(MessageWrapping.displayText(Array("hello\nworld".utf8)) == "hello\nworld")
        #expect(MessageWrapping.displayText([0xff, 0x00]) == nil)
        #expect(MessageWrapping.displayText([0x41, 0x00]) == nil)
    }
}
