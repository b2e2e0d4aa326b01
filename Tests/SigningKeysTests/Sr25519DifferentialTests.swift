import CSodium
import Primitives
import SigilTesting
import Testing

@testable import SigningKeys

/// The variable-time sr25519 verification (`Sr25519KeyPair.check`, `Curve25519/`) must decide
/// exactly as the libsodium-only one (`checkWithLibsodium`): same verdict and same error code, for
/// valid signatures, corrupted ones, random junk and the edge cases of docs/reference/crypto.md §1.5–1.7.
@Suite struct Sr25519DifferentialTests {
    init() { Sodium.ensureInitialized() }

    /// The error code of a check, or nil when it accepts.
    static func outcome(_ f: () throws -> Void) -> KeyError.Code? {
        do {
            try f()
            return nil
        } catch let e as KeyError {
            return e.code
        } catch {
            return KeyError.Code.cryptoFailure
        }
    }

    /// Both verifiers' outcomes; `#expect`s they agree and returns the common one.
    @discardableResult
    static func agree(
        _ sig: [UInt8], _ msg: [UInt8], _ pk: [UInt8], _ label: @autoclosure () -> String
    ) -> KeyError.Code? {
        let new = outcome { try Sr25519KeyPair.check(signature: sig, message: msg, publicKey: pk) }
        let old = outcome { try Sr25519KeyPair.checkWithLibsodium(signature: sig, message: msg, publicKey: pk) }
        #expect(new == old, "\(label()): new \(String(describing: new)) old \(String(describing: old))")
        #expect(Sr25519KeyPair.verify(signature: sig, message: msg, publicKey: pk) == (old == nil))
        return old
    }

    @Test func validSignaturesFromOurSignerAreAcceptedByBoth() throws {
        var rng = TestBytes(seed: 11)
        for i in 0..<tierScaled(300) {
            let pair = try Sr25519KeyPair(seed: rng.bytes(32))
            let msg = rng.bytes(Int(rng.next() % 200))
            let sig = try pair.sign(msg)
            #expect(Self.agree(sig, msg, pair.publicKey, "valid \(i)") == nil)
        }
    }

    @Test func corruptedSignaturesKeysAndMessagesAreDecidedAlike() throws {
        var rng = TestBytes(seed: 12)
        var rejected = 0
        let cases = tierScaled(1000)
        for i in 0..<cases {
            let pair = try Sr25519KeyPair(seed: rng.bytes(32))
            var msg = rng.bytes(Int(rng.next() % 100) + 1)
            var sig = try pair.sign(msg)
            var pk = pair.publicKey
            let bit = Int(rng.next() % 8)
            switch i % 5 {
            case 0: sig[Int(rng.next() % 32)] ^= 1 << bit  // R
            case 1: sig[32 + Int(rng.next() % 32)] ^= 1 << bit  // s (may break canonicity or the marker)
            case 2: pk[Int(rng.next() % 32)] ^= 1 << bit  // key: mostly undecodable, some valid other keys
            case 3: msg[Int(rng.next() % UInt64(msg.count))] ^= 1 << bit
            default:  // s replaced by a random scalar, or R by a random valid point
                if rng.next() & 1 == 0 {
                    sig.replaceSubrange(32..<64, with: rng.scalar())
                    sig[63] |= 0x80
                } else {
                    sig.replaceSubrange(0..<32, with: rng.point())
                }
            }
            if Self.agree(sig, msg, pk, "corrupted \(i)") != nil { rejected += 1 }
        }
        #expect(rejected >= cases - cases / 100)  // a flipped marker-free bit could in theory leave it valid: none do
    }

    @Test func randomSignaturesOverRandomValidKeysAreDecidedAlike() {
        var rng = TestBytes(seed: 13)
        for i in 0..<tierScaled(700) {
            let pk =
                i % 7 == 0
                ? {
                    var b = rng.bytes(32); b[31] &= 0x7f; return b
                }() : rng.point()
            var sig = rng.point() + rng.scalar()
            if i % 3 != 0 { sig[63] |= 0x80 }
            if i % 11 == 0 { sig = rng.bytes(64) }
            Self.agree(sig, rng.bytes(32), pk, "random \(i)")
        }
    }

    @Test func edgeCasesAreDecidedAlike() throws {
        let pair = try Sr25519KeyPair(seed: [UInt8](repeating: 7, count: 32))
        let msg = Array("edge".utf8)
        let sig = try pair.sign(msg)
        let zero32 = [UInt8](repeating: 0, count: 32)
        var cases: [(String, [UInt8], [UInt8])] = []
        cases.append(("identity key", sig, zero32))
        var sZero = Array(sig[0..<32]) + zero32
        sZero[63] |= 0x80
        cases.append(("s = 0", sZero, pair.publicKey))
        var identityR = zero32 + Array(sig[32..<64])
        cases.append(("R = identity", identityR, pair.publicKey))
        identityR[63] &= 0x7f
        cases.append(("unmarked, R = identity", identityR, pair.publicKey))
        var lMinus1 = Ristretto255.order
        lMinus1[0] -= 1
        var sMax = Array(sig[0..<32]) + lMinus1
        sMax[63] |= 0x80
        cases.append(("s = l − 1", sMax, pair.publicKey))
        var sL = Array(sig[0..<32]) + Ristretto255.order
        sL[63] |= 0x80
        cases.append(("s = l", sL, pair.publicKey))
        var highKey = pair.publicKey
        highKey[31] |= 0x80
        cases.append(("key with bit 255", sig, highKey))
        // Key as p − s (negative, odd) and as s + p (non-canonical, when < 2^255).
        cases.append(("negated key encoding", sig, ReferenceField.sub(zero32, pair.publicKey)))
        var ones = [UInt8](repeating: 0xff, count: 32)
        ones[31] = 0x7f
        cases.append(("key 2^255 − 1", sig, ones))
        for i in 0..<32 { cases.append(("key p − 19 + \(i)", sig, Curve25519Tests.nearP(i))) }
        // R with bit 255 set, and R as its negative-s twin: never the encoding of R'.
        var highR = sig
        highR[31] |= 0x80
        cases.append(("R with bit 255", highR, pair.publicKey))
        let negR = ReferenceField.sub(zero32, Array(sig[0..<32])) + Array(sig[32..<64])
        cases.append(("R negated field element", negR, pair.publicKey))
        // R = s·B − k·A computed for s = 0 with the identity key is not reachable: identity keys
        // are rejected by both before any comparison. A signature valid for the identity key:
        var forIdentity = [UInt8](repeating: 0, count: 64)
        var one = zero32
        one[0] = 1
        forIdentity.replaceSubrange(0..<32, with: Curve25519Tests.libsodiumBase(one))
        forIdentity.replaceSubrange(32..<64, with: one)
        forIdentity[63] |= 0x80
        cases.append(("sig valid for the identity key", forIdentity, zero32))
        for (label, s, pk) in cases { Self.agree(s, msg, pk, label) }
        // And the unmodified one verifies.
        #expect(Self.agree(sig, msg, pair.publicKey, "original") == nil)
        #expect(Self.agree(sig, msg, highKey, "bit 255") == .invalidPublicKey)
        #expect(Self.agree(sig, msg, zero32, "identity") == .invalidPublicKey)
        #expect(Self.agree(sZero, msg, pair.publicKey, "s = 0") == .invalidSignature)
        #expect(Self.agree(highR, msg, pair.publicKey, "R bit 255") == .invalidSignature)
    }

    @Test(arguments: Vectors.ids("signatures.json") { ($0["scheme"] as? String) == "sr25519" })
    func everySr25519VectorIsDecidedAlike(id: String) throws {
        let v = try Vectors.entry("signatures.json", id)
        guard let sigHex = v["signature"] as? String, let msgHex = v["message"] as? String else { return }
        let pk: [UInt8]
        if let p = v["public_key"] as? String {
            pk = try Hex.decode(p, prefix: .optional)
        } else {
            pk = try (try v.dict("signer")).hex("public_key")
        }
        let verdict = Self.agree(
            try Hex.decode(sigHex, prefix: .optional), try Hex.decode(msgHex, prefix: .optional), pk, id)
        if let expected = v["expect_valid"] as? Bool { #expect((verdict == nil) == expected) }
    }
}
