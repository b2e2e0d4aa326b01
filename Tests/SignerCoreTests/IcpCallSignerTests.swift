import Foundation
import ICPCodec
import Primitives
import SigningKeys
import Testing

@testable import SignerCore

/// ICRC-49 calls through SignerCore: prepare (checks, words) → approval → sign exactly that.
@Suite struct IcpCallSignerTests {
    static let now: UInt64 = 1_700_000_000_000_000_000
    /// agent-js's icrc1_transfer argument from dfinity/oisy-wallet-signer's mocks (0.05 ICP).
    static let transferArg =
        "RElETAZte24AbAKzsNrDA2ithsqDBQFufW54bAb7ygECxvy2AgO6ieXCBAGi3pTrBgGC8/ORDATYo4yoDX0BBQEdP0Duk4WbdYJC1svDpO9SpE+aElxKU7FNBuH2LAIAAAAAAMCWsQI="

    static func key() throws -> IcpKeyPair {
        try IcpKeyPair(secretKey: SecretBytes([UInt8](repeating: 0x21, count: 32)), algorithm: .secp256k1)
    }

    static func params(method: String = "icrc1_transfer", arg: String = transferArg, sender: String? = nil) throws
        -> IcpCallParams
    {
        IcpCallParams(
            canisterId: "ryjl3-tyaaa-aaaaa-aaaba-cai",
            sender: try sender ?? Principal(selfAuthenticating: key().derPublicKey).text, method: method, arg: arg)
    }

    @Test func knownCallIsDescribedAndSignedExactly() throws {
        let key = try IcpCallSignerTests.key()
        let signer = IcpCallSigner(keys: [key])
        let prepared = try signer.prepare(
            IcpCallSignerTests.params(), origin: "https://dapp.example", now: IcpCallSignerTests.now,
            blindSigningAllowed: false)
        #expect(prepared.rendered.recognised)
        let rows = prepared.rows(now: IcpCallSignerTests.now)
        #expect(rows.contains { $0.label == "canister" && $0.value == "ryjl3-tyaaa-aaaaa-aaaba-cai (ICP ledger)" })
        #expect(rows.contains { $0.label == "Amount" && $0.value == "0.05 ICP" })
        #expect(rows.contains { $0.label == "expiry" && $0.value.contains("valid for 240 s") })
        #expect(!rows.contains { $0.isWarning })

        let signed = try signer.sign(prepared, now: IcpCallSignerTests.now + 1)
        #expect(signed.requestId == prepared.requestId)
        let envelope = try ICPEnvelope(cborBytes: signed.envelope)  // verifies the signature
        #expect(envelope.content == prepared.content)
        #expect(try ICPRequestContent(contentMap: signed.contentMap) == prepared.content)
        let readState = try ICPEnvelope(cborBytes: signed.readStateEnvelope)
        #expect(readState.content.paths == [[Array("request_status".utf8), prepared.requestId]])
        #expect(readState.content.ingressExpiry == prepared.content.ingressExpiry)
    }

    @Test func blindSigningIsOffUnlessTheSiteOptedIn() throws {
        let signer = IcpCallSigner(keys: [try IcpCallSignerTests.key()])
        let params = try IcpCallSignerTests.params(method: "set_controller")
        #expect(throws: SignerError(.blindSigningOff, "")) {
            try signer.prepare(
                params, origin: "https://dapp.example", now: IcpCallSignerTests.now, blindSigningAllowed: false)
        }
        let prepared = try signer.prepare(
            params, origin: "https://dapp.example", now: IcpCallSignerTests.now, blindSigningAllowed: true)
        let rows = prepared.rows(now: IcpCallSignerTests.now)
        #expect(rows.first?.isWarning == true)
        #expect(
            rows.contains {
                $0.label == "argument" && $0.value.hasPrefix("\(prepared.rendered.argumentSize) bytes: 4449444c")
            })
    }

    @Test func refusals() throws {
        let signer = IcpCallSigner(keys: [try IcpCallSignerTests.key()])
        let stranger = Principal(
            selfAuthenticating: try IcpKeyPair(
                secretKey: SecretBytes([UInt8](repeating: 0x22, count: 32)), algorithm: .secp256k1
            ).derPublicKey)
        #expect(throws: SignerError(.unknownAccount, "")) {
            try signer.prepare(
                IcpCallSignerTests.params(sender: stranger.text), origin: "o", now: IcpCallSignerTests.now,
                blindSigningAllowed: true)
        }
        #expect(throws: SignerError(.invalidInput, "")) {
            try signer.prepare(
                IcpCallSignerTests.params(arg: "not base64!"), origin: "o", now: IcpCallSignerTests.now,
                blindSigningAllowed: true)
        }
        var longNonce = try IcpCallSignerTests.params()
        longNonce.nonce = Data(repeating: 1, count: 33).base64EncodedString()
        #expect(throws: SignerError(.invalidInput, "")) {
            try signer.prepare(longNonce, origin: "o", now: IcpCallSignerTests.now, blindSigningAllowed: true)
        }
        let prepared = try signer.prepare(
            IcpCallSignerTests.params(), origin: "o", now: IcpCallSignerTests.now, blindSigningAllowed: false)
        #expect(throws: SignerError(.expired, "")) {
            try signer.sign(prepared, now: prepared.content.ingressExpiry)
        }
        #expect(throws: SignerError(.unknownAccount, "")) {
            try IcpCallSigner(keys: []).sign(prepared, now: IcpCallSignerTests.now)
        }
    }
}
