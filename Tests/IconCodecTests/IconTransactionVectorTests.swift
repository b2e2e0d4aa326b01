import Foundation
import Primitives
import SigningKeys
import Testing

@testable import IconCodec

/// V-ICON-3, -4, -5, -7 byte for byte: serialization, SHA3-256 hash, signature
/// (Resources/icon-transactions.json; rules in docs/reference/icon.md §3–§5).
@Suite struct IconTransactionVectorTests {
    static let file: JSONValue = {
        guard let url = Bundle.module.url(forResource: "Resources/icon-transactions", withExtension: "json"),
            let data = try? Data(contentsOf: url), let value = try? JSONValue.parse(Array(data))
        else { return .null }
        return value
    }()

    static var vectors: [JSONValue] { file["vectors"]?.arrayValue ?? [] }
    static var ids: [String] { vectors.compactMap { $0["id"]?.stringValue } }

    static func vector(_ id: String) throws -> JSONValue {
        try #require(vectors.first { $0["id"]?.stringValue == id })
    }

    @Test func allVectorsLoaded() { #expect(IconTransactionVectorTests.ids.count == 8) }

    @Test(arguments: IconTransactionVectorTests.ids)
    func vector(_ id: String) throws {
        let v = try IconTransactionVectorTests.vector(id)
        let tx = try #require(v["tx"])
        let expected = Array(try #require(v["serialized"]?.stringValue).utf8)
        let hash = try Hex.decode(try #require(v["hash"]?.stringValue), prefix: .forbidden)
        let serialized: [UInt8]
        if v["serializerOnly"] == .bool(true) {
            // V-ICON-4a has no nid: Sigil refuses it, the serializer alone still matches.
            #expect(throws: IconCodecError(.missingField, "")) { try IconTransaction(json: tx) }
            serialized = try IconSerializer.message(try #require(tx.objectValue))
        } else {
            let transaction = try IconTransaction(json: tx)
            serialized = transaction.serialized
            #expect(transaction.hash == hash)
            #expect(transaction.transactionHash == "0x" + (v["hash"]?.stringValue ?? ""))
            // Text round trip: the same transaction from JSON text.
            let text = tx.encoded()
            #expect(try IconTransaction(jsonText: text) == transaction)
        }
        #expect(String(decoding: serialized, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        #expect(SHA3_256.hash(serialized) == hash)
        if let secret = v["secret"]?.stringValue, let signature = v["signature"]?.stringValue {
            let key = try IconKeyPair(secretKey: SecretBytes(Hex.decode(secret, prefix: .forbidden)))
            #expect(try key.signHashBase64(hash) == signature)
            let raw = try IconKeyPair.decodeSignature(base64: signature)
            #expect(try IconKeyPair.recoverAddress(signature: raw, hash: hash) == key.address)
        }
    }

    /// The signed form carries every field plus `signature`, and re-validates without it.
    @Test func signedForm() throws {
        let v = try IconTransactionVectorTests.vector("V-ICON-7B")
        let transaction = try IconTransaction(json: try #require(v["tx"]))
        let signed = transaction.signed(signatureBase64: v["signature"]?.stringValue ?? "")
        #expect(signed["signature"] == v["signature"])
        #expect(throws: IconCodecError(.signaturePresent, "")) { try IconTransaction(json: signed) }
        #expect(try IconTransaction(json: .object(transaction.fields)) == transaction)
    }
}
