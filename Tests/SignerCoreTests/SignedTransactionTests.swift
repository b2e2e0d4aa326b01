import Foundation
import Primitives
import ScaleCodec
import Testing

@testable import SignerCore

@Suite struct SignedTransactionTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let id: String
        let request: [UInt8]
        let multisignature: String
        let signedTransaction: String
        var testDescription: String { id }
    }

    static var vectors: [Vector] {
        let all = (try? PayloadResources.json("signatures.json")["vectors"] as? [[String: Any]]) ?? []
        return all.filter { $0["kind"] as? String == "signed_transaction" }.compactMap { v in
            guard let id = v["id"] as? String, let req = v["request"],
                let json = try? PayloadResources.payloadJSON(req),
                let sig = v["multisignature"] as? String, let tx = v["signed_transaction"] as? String
            else { return nil }
            return Vector(id: id, request: json, multisignature: sig, signedTransaction: tx)
        }
    }

    @Test func theVectorFileHasBothSignedTransactions() { #expect(Self.vectors.count == 2) }

    @Test(arguments: vectors)
    func signedTransactionMatchesTheVector(v: Vector) throws {
        let payload = try SignerPayload(json: v.request)
        #expect(payload.withSignedTransaction)
        let signing = try SigningPayload(payload: payload)
        var r = ScaleReader(try Hex.decode(v.multisignature, prefix: .required))
        let sig = try MultiSignature(from: &r)
        try r.expectEnd()
        let tx = try signing.signedTransaction(accountId: payload.accountId, signature: sig)
        #expect(Hex.encode(tx) == v.signedTransaction)
    }

    @Test func aTwentyByteSignerCannotUseMultiAddressId() throws {
        let sig = try MultiSignature(scheme: .ecdsa, signature: Array(repeating: 1, count: 65))
        let p = try SignerPayload(json: Array(PayloadFixtures.polkadotA.utf8))
        #expect(throws: SignerError(.badAddress, "")) {
            try SigningPayload(payload: p).signedTransaction(accountId: Array(repeating: 0, count: 20), signature: sig)
        }
    }
}

/// Hand-written payloads for tests beyond the vector files.
enum PayloadFixtures {
    /// Vector A (Polkadot relay list, mode 0, System.remark(b"hello")).
    static let polkadotA = """
        {"address":"15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5","assetId":null,
        "blockHash":"0x1111111111111111111111111111111111111111111111111111111111111111","blockNumber":"0x014fb1fb",
        "era":"0xb503","genesisHash":"0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3",
        "metadataHash":null,"method":"0x00001468656c6c6f","mode":0,"nonce":"0x00000007",
        "signedExtensions":["AuthorizeCall","CheckNonZeroSender","CheckSpecVersion","CheckTxVersion","CheckGenesis",
        "CheckMortality","CheckNonce","CheckWeight","ChargeTransactionPayment","PrevalidateAttests","CheckMetadataHash"],
        "specVersion":"0x001e8480","tip":"0x00000000000000000000000000000000","transactionVersion":"0x0000001a",
        "version":4,"withSignedTransaction":false}
        """

    /// `polkadotA` with one field replaced (the value is raw JSON).
    static func polkadotA(replacing key: String, with json: String) -> [UInt8] {
        var text = polkadotA
        guard let range = text.range(of: "\"\(key)\":") else { return Array(text.utf8) }
        let rest = text[range.upperBound...]
        var depth = 0
        var inString = false
        var end = rest.startIndex
        for i in rest.indices {
            let c = rest[i]
            if c == "\"" { inString.toggle() }
            if !inString {
                if c == "[" || c == "{" { depth += 1 }
                if c == "]" || c == "}" { depth -= 1 }
                if (c == "," && depth == 0) || depth < 0 {
                    end = i
                    break
                }
            }
        }
        text.replaceSubrange(range.upperBound..<end, with: json)
        return Array(text.utf8)
    }
}
