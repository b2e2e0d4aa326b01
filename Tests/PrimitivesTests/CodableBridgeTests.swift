import Primitives
import Testing

@Suite struct CodableBridgeTests {
    struct Params: Codable, Equatable {
        let address: String
        let nonce: UInt64
        let tags: [String]?
        let extra: JSONValue?
    }

    @Test func decodesTypedParamsExactly() throws {
        let value = try JSONValue.parse(#"{"address":"5G","nonce":18446744073709551615,"extra":{"x":[1]}}"#)
        let params = try JSONValueDecoder().decode(Params.self, from: value)
        #expect(params == Params(address: "5G", nonce: .max, tags: nil, extra: ["x": [1]]))
    }

    @Test(arguments: [
        #"{"address":1,"nonce":1}"#, #"{"address":"a","nonce":1.5}"#, #"{"address":"a","nonce":-1}"#,
        #"{"address":"a","nonce":18446744073709551616}"#, #"{"nonce":1}"#, "[]",
    ])
    func refusesMismatches(text: String) throws {
        let value = try JSONValue.parse(text)
        #expect(throws: PrimitivesError(.jsonTypeMismatch, "")) { try JSONValueDecoder().decode(Params.self, from: value) }
    }

    @Test func floatsAreNeverRead() throws {
        #expect(throws: PrimitivesError(.jsonTypeMismatch, "")) {
            try JSONValueDecoder().decode(Double.self, from: .integer(1))
        }
    }

    struct Result: Encodable {
        let id: String
        let signature: String
        let signedTransaction: String?
        let nested: [Int]
    }

    @Test func encodesResultsInDeclaredOrder() throws {
        let value = try JSONValueEncoder().encode(Result(id: "1", signature: "0x00", signedTransaction: nil, nested: [1, 2]))
        #expect(value.serialized() == #"{"id":"1","signature":"0x00","nested":[1,2]}"#)
        #expect(try JSONValueEncoder().encode(["a": 1] as JSONValue) == ["a": 1])
    }
}
