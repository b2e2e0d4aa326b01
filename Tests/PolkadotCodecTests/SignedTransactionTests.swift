import Foundation
import Primitives
import ScaleCodec
import SigilTesting
import Testing

@testable import PolkadotCodec

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
        #expect(throws: PolkadotCodecError(.badAddress, "")) {
            try SigningPayload(payload: p).signedTransaction(accountId: Array(repeating: 0, count: 20), signature: sig)
        }
    }
}
