import Primitives
import SigningKeys
import Testing

@testable import ICPCodec

/// Expiry, nonce, sender and envelope-verification rules (docs/reference/icp.md §2–§3).
@Suite struct RequestRuleTests {
    static let now: UInt64 = 1_700_000_000_000_000_000
    static let minute: UInt64 = 60_000_000_000

    static func key(_ byte: UInt8 = 7, _ algorithm: IcpKeyPair.Algorithm = .secp256k1) throws -> IcpKeyPair {
        try IcpKeyPair(secretKey: SecretBytes([UInt8](repeating: byte, count: 32)), algorithm: algorithm)
    }

    static func call(expiry: UInt64? = nil, nonce: [UInt8]? = nil, key: IcpKeyPair) throws -> ICPRequestContent {
        try ICPRequestContent(
            .call, sender: Principal(selfAuthenticating: key.derPublicKey),
            canisterId: Principal(text: "ryjl3-tyaaa-aaaaa-aaaba-cai"), methodName: "icrc1_transfer",
            arg: Array("DIDL".utf8) + [0, 0], nonce: nonce, ingressExpiry: expiry, now: now)
    }

    @Test func defaultExpiryIsFourMinutes() throws {
        let c = try RequestRuleTests.call(key: RequestRuleTests.key())
        #expect(c.ingressExpiry == RequestRuleTests.now + 4 * RequestRuleTests.minute)
    }

    @Test(arguments: [
        (UInt64(1), true), (5 * minute, true), (5 * minute + 1, false), (0, false),
    ])
    func expiryBoundaries(offset: UInt64, accepted: Bool) throws {
        let key = try RequestRuleTests.key()
        if accepted {
            #expect(
                try RequestRuleTests.call(expiry: RequestRuleTests.now + offset, key: key).ingressExpiry
                    == RequestRuleTests.now + offset)
        } else {
            #expect(throws: ICPCodecError(.expiryOutOfRange, "")) {
                try RequestRuleTests.call(expiry: RequestRuleTests.now + offset, key: key)
            }
        }
    }

    @Test func expiryInThePast() throws {
        #expect(throws: ICPCodecError(.expiryOutOfRange, "")) {
            try RequestRuleTests.call(expiry: RequestRuleTests.now - 1, key: RequestRuleTests.key())
        }
    }

    @Test func nonceAtMost32Bytes() throws {
        let key = try RequestRuleTests.key()
        #expect(try RequestRuleTests.call(nonce: [UInt8](repeating: 1, count: 32), key: key).nonce?.count == 32)
        #expect(throws: ICPCodecError(.nonceTooLong, "")) {
            try RequestRuleTests.call(nonce: [UInt8](repeating: 1, count: 33), key: key)
        }
        // Also when decoding a content map from elsewhere.
        let c = try RequestRuleTests.call(nonce: [UInt8](repeating: 1, count: 32), key: key)
        guard case .map(var entries) = c.cbor else { return }
        entries = entries.map { $0.key == "nonce" ? ("nonce", .bytes([UInt8](repeating: 1, count: 33))) : $0 }
        #expect(throws: ICPCodecError(.nonceTooLong, "")) { try ICPRequestContent(cbor: .map(entries)) }
    }

    @Test(arguments: IcpKeyPair.Algorithm.allCases)
    func signedEnvelopeVerifiesAndTamperingFails(_ algorithm: IcpKeyPair.Algorithm) throws {
        let key = try RequestRuleTests.key(9, algorithm)
        let content = try RequestRuleTests.call(key: key)
        let envelope = try ICPEnvelope(signing: content, with: key)
        let bytes = envelope.encoded
        #expect(try ICPEnvelope(cborBytes: bytes) == envelope)
        let signature = try #require(envelope.senderSignature)
        #expect(signature.count == 64)
        // A different content (one byte of arg) does not verify with the same signature.
        let other = try ICPRequestContent(
            .call, sender: content.sender, canisterId: try #require(content.canisterId), methodName: "icrc1_transfer",
            arg: Array("DIDL".utf8) + [0, 1], ingressExpiry: content.ingressExpiry, now: RequestRuleTests.now)
        #expect(throws: ICPCodecError(.signature, "")) {
            try ICPEnvelope(content: other, senderPublicKey: key.derPublicKey, senderSignature: signature)
        }
        // Another key is not the sender.
        let stranger = try RequestRuleTests.key(10, algorithm)
        #expect(throws: ICPCodecError(.signature, "")) { try ICPEnvelope(signing: content, with: stranger) }
        #expect(throws: ICPCodecError(.signature, "")) {
            try ICPEnvelope(content: content, senderPublicKey: stranger.derPublicKey, senderSignature: signature)
        }
    }

    /// libsecp256k1 emits low-S; the high-S twin (n − s) of a valid signature is refused.
    @Test func secp256k1LowSOnly() throws {
        let key = try RequestRuleTests.key(11)
        let content = try RequestRuleTests.call(key: key)
        let sig = try #require(try ICPEnvelope(signing: content, with: key).senderSignature)
        let n: [UInt8] = try Hex.decode(
            "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141", prefix: .forbidden)
        let halfN: [UInt8] = try Hex.decode(
            "7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0", prefix: .forbidden)
        let s = Array(sig.suffix(32))
        #expect(!halfN.lexicographicallyPrecedes(s))  // s ≤ n/2
        var highS = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for i in (0..<32).reversed() {
            let d = Int(n[i]) - Int(s[i]) - borrow
            highS[i] = UInt8((d + 256) % 256)
            borrow = d < 0 ? 1 : 0
        }
        let message = ICPEnvelope.domainSeparator + content.requestId
        #expect(IcpKeyPair.verify(signature: sig, message: message, derPublicKey: key.derPublicKey))
        #expect(
            !IcpKeyPair.verify(
                signature: Array(sig.prefix(32)) + highS, message: message, derPublicKey: key.derPublicKey))
    }

    @Test func anonymousEnvelopeOmitsKeyAndSignature() throws {
        let content = try ICPRequestContent(
            readStatePaths: [[Array("time".utf8)]], sender: .anonymous, now: RequestRuleTests.now)
        let envelope = try ICPEnvelope(anonymous: content)
        let decoded = try CBORDecoder.decode(envelope.encoded).untagged
        #expect(decoded["sender_pubkey"] == nil)
        #expect(decoded["sender_sig"] == nil)
        #expect(try ICPEnvelope(cborBytes: envelope.encoded) == envelope)
        #expect(throws: ICPCodecError(.signature, "")) {
            try ICPEnvelope(anonymous: RequestRuleTests.call(key: RequestRuleTests.key()))
        }
    }

    @Test func contentMapRefusals() throws {
        let good = try RequestRuleTests.call(key: RequestRuleTests.key()).cbor
        guard case .map(let entries) = good else { return }
        let cases: [[(key: String, value: CBORValue)]] = [
            entries + [("extra", .text("x"))],
            entries.filter { $0.key != "sender" },
            entries.filter { $0.key != "arg" },
            entries.map { $0.key == "request_type" ? ($0.key, .text("update")) : $0 },
            entries.map { $0.key == "ingress_expiry" ? ($0.key, .text("soon")) : $0 },
            entries.map { $0.key == "method_name" ? ($0.key, .bytes([1])) : $0 },
            entries + [("paths", .array([]))],
        ]
        for c in cases {
            #expect(throws: ICPCodecError(.invalidRequest, "")) { try ICPRequestContent(cbor: .map(c)) }
        }
    }
}

/// Rosetta-style offline series (docs/reference/icp.md §2.4).
@Suite struct OfflineSeriesTests {
    @Test(arguments: [(UInt64(0), 1), (120, 2), (121, 3), (3600, 31), (86_400, 721)])
    func expiriesCoverTheWindow(windowSeconds: UInt64, count: Int) throws {
        let now = RequestRuleTests.now
        let window = windowSeconds * 1_000_000_000
        let series = try ICPRequestContent.series(
            sender: .anonymous, canisterId: Principal(text: "ryjl3-tyaaa-aaaaa-aaaba-cai"), methodName: "transfer",
            arg: [1], now: now, window: window)
        #expect(series.count == count)
        #expect(series.first?.ingressExpiry == now + ICPRequestContent.defaultTTLNanos)
        #expect(series.allSatisfy { $0.nonce == nil })
        // At every moment t of [now, now + window] some envelope has t < expiry ≤ t + 5 min.
        var t = now
        while t <= now + window {
            #expect(
                series.contains { $0.ingressExpiry > t && $0.ingressExpiry <= t + ICPRequestContent.maxIngressTTLNanos }
            )
            t += 30_000_000_000
        }
        #expect(Set(series.map(\.requestId)).count == count)
    }

    @Test func windowAtMost24Hours() throws {
        #expect(throws: ICPCodecError(.expiryOutOfRange, "")) {
            try ICPRequestContent.series(
                sender: .anonymous, canisterId: .managementCanister, methodName: "m", arg: [],
                now: RequestRuleTests.now,
                window: ICPRequestContent.maxSeriesWindowNanos + 1)
        }
    }
}
