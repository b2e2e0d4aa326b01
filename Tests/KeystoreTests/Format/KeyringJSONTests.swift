import Foundation
import Primitives
import Testing

@testable import Keystore

@Suite struct KeyringJSONTests {
    @Test(arguments: KeystoreVector.all)
    func everyVectorFileParses(_ v: KeystoreVector) throws {
        let file = try KeyringJSON.parse(v.json)
        #expect(file.version == "3")
        #expect(file.isEncrypted == v.encrypted, "\(v.id)")
        #expect(file.keyType == v.keyType)
        #expect(!file.isBatch)
    }

    @Test func serialisingKeepsEveryFieldAndUnknownMetaKeys() throws {
        let text = """
            {"encoded":"AAAA","encoding":{"content":["pkcs8","sr25519"],"type":["scrypt","xsalsa20-poly1305"],"version":"3"},
             "address":"5Grw","meta":{"name":"Alice","whenCreated":1718265838755,"genesisHash":"","isHidden":true,
             "tags":["a",1.5,null],"nested":{"x":false}}}
            """
        let file = try KeyringJSON.parse(Data(text.utf8))
        #expect(file.meta["whenCreated"] == .integer(1_718_265_838_755))
        let again = try KeyringJSON.parse(try file.serialized())
        #expect(again == file)
        let out = String(decoding: try file.serialized(), as: UTF8.self)
        #expect(out.contains("\"whenCreated\": 1718265838755"))
        #expect(!out.contains("\\/"), "base64 slashes must not be escaped")
    }

    @Test func encodingTypeAsAStringAndHexEncodedAreAccepted() throws {
        let text = """
            {"encoded":"0x0102ff","encoding":{"type":"xsalsa20-poly1305","version":"2"},"address":"x"}
            """
        let file = try KeyringJSON.parse(Data(text.utf8))
        #expect(file.type == ["xsalsa20-poly1305"])
        #expect(!file.usesScrypt)
        #expect(try file.encodedBytes() == [1, 2, 0xff])
        #expect(file.content == nil)
    }

    @Test func aBatchExportIsRecognised() throws {
        let text = """
            {"encoded":"AAAA","encoding":{"content":["batch-pkcs8"],"type":["scrypt","xsalsa20-poly1305"],"version":"3"},
             "accounts":[{"address":"5Grw","meta":{"name":"A"}}]}
            """
        let file = try KeyringJSON.parse(Data(text.utf8))
        #expect(file.isBatch)
        #expect(file.batchAccounts?.count == 1)
        #expect(file.address == "")
    }

    @Test(arguments: [
        ("not json", "{{"),
        ("array", "[]"),
        ("no encoded", #"{"encoding":{"type":["none"],"version":"3"}}"#),
        ("encoded not string", #"{"encoded":5,"encoding":{"type":["none"],"version":"3"}}"#),
        ("no encoding", #"{"encoded":"AA"}"#),
        ("no type", #"{"encoded":"AA","encoding":{"version":"3"}}"#),
        ("type has number", #"{"encoded":"AA","encoding":{"type":[1],"version":"3"}}"#),
        ("meta not object", #"{"encoded":"AA","encoding":{"type":["none"],"version":"3"},"meta":[]}"#),
        ("accounts not array", #"{"encoded":"AA","encoding":{"type":["none"],"version":"3"},"accounts":{}}"#),
        ("address number", #"{"encoded":"AA","encoding":{"type":["none"],"version":"3"},"address":7}"#),
    ])
    func malformedFilesNameTheProblem(_ label: String, _ text: String) {
        #expect(throws: KeystoreError(.malformedFile, ""), "\(label)") { try KeyringJSON.parse(Data(text.utf8)) }
    }

    @Test(arguments: [
        #"{"encoded":"AA","encoding":{"type":["none"],"version":"4"}}"#,
        #"{"encoded":"AA","encoding":{"content":["raw","sr25519"],"type":["none"],"version":"3"}}"#,
    ])
    func unsupportedVersionsAndContentAreRejected(_ text: String) {
        #expect(throws: KeystoreError(.unsupportedFormat, "")) { try KeyringJSON.parse(Data(text.utf8)) }
    }

    @Test func oversizedFilesAreRejectedBeforeParsing() {
        let big = Data(repeating: 0x20, count: KeyringJSON.maxFileBytes + 1)
        #expect(throws: KeystoreError(.malformedFile, "")) { try KeyringJSON.parse(big) }
    }

    @Test func badBase64IsMalformed() throws {
        let file = try KeyringJSON.parse(Data(#"{"encoded":"**","encoding":{"type":["none"],"version":"3"}}"#.utf8))
        #expect(throws: KeystoreError(.malformedFile, "")) { try file.encodedBytes() }
    }

    @Test func deeplyNestedMetaDoesNotCrash() {
        let depth = 100_000
        let text =
            #"{"encoded":"AA","encoding":{"type":["none"],"version":"3"},"meta":{"a":"#
            + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}}"
        #expect(throws: KeystoreError.self) { try KeyringJSON.parse(Data(text.utf8)) }
    }
}
