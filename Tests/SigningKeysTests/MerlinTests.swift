import Primitives
import Testing

@testable import SigningKeys

@Suite struct MerlinTests {
    func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    @Test func strobeConformanceVectorMatches() throws {
        let v = try Vectors.entry("merlin.json", "strobe-conformance")
        var s = bytes("Conformance Test Protocol").withUnsafeBytes { Strobe128(protocolLabel: $0) }
        bytes("ms").withUnsafeBytes { s.metaAD($0, more: false) }
        bytes("g").withUnsafeBytes { s.metaAD($0, more: true) }
        [UInt8](repeating: 0x63, count: 1024).withUnsafeBytes { s.ad($0, more: false) }
        bytes("prf").withUnsafeBytes { s.metaAD($0, more: false) }
        var prf1 = [UInt8](repeating: 0, count: 32)
        prf1.withUnsafeMutableBytes { s.prf(into: $0, more: false) }
        #expect(prf1 == (try v.hex("prf1")))
        bytes("key").withUnsafeBytes { s.metaAD($0, more: false) }
        prf1.withUnsafeBytes { s.key($0, more: false) }
        bytes("prf").withUnsafeBytes { s.metaAD($0, more: false) }
        var prf2 = [UInt8](repeating: 0, count: 32)
        prf2.withUnsafeMutableBytes { s.prf(into: $0, more: false) }
        #expect(prf2 == (try v.hex("prf2")))
    }

    @Test func simpleTranscriptMatches() throws {
        var t = MerlinTranscript("test protocol")
        t.append("some label", "some data")
        let c = t.challengeBytes("challenge", count: 32)
        #expect(hex(c) == (try Vectors.entry("merlin.json", "merlin-simple")["challenges"] as? [String])?.first)
    }

    @Test func complexTranscriptMatches() throws {
        var t = MerlinTranscript("test protocol")
        t.append("step1", "some data")
        var c = [UInt8]()
        for _ in 0..<32 {
            c = t.challengeBytes("challenge", count: 32)
            t.append("bigdata", [UInt8](repeating: 0x63, count: 1024))
            t.append("challengedata", c)
        }
        #expect(hex(c) == (try Vectors.entry("merlin.json", "merlin-complex")["challenges"] as? [String])?.first)
    }

    @Test func emptyLongU64AndSigningContextTranscriptsMatch() throws {
        func expected(_ id: String) throws -> [String] {
            try #require(try Vectors.entry("merlin.json", id)["challenges"] as? [String])
        }
        var e = MerlinTranscript("")
        e.append("", "")
        #expect([hex(e.challengeBytes("", count: 32))] == (try expected("merlin-empty-label-and-message")))

        var l = MerlinTranscript("long")
        let data = (0..<512).map { UInt8(truncatingIfNeeded: $0) }
        l.append("data", data)
        #expect([hex(l.challengeBytes("out", count: 200))] == (try expected("merlin-long-message-and-challenge")))

        var m = MerlinTranscript("multi")
        m.appendU64("n", 1_234_567_890_123)
        var out = [hex(m.challengeBytes("a", count: 16))]
        m.append("x", "y")
        out.append(hex(m.challengeBytes("b", count: 64)))
        out.append(hex(m.challengeBytes("c", count: 1)))
        #expect(out == (try expected("merlin-u64-and-several-challenges")))

        var s = MerlinTranscript("SigningContext")
        s.append("", "substrate")
        s.append("sign-bytes", "this is a message")
        s.append("proto-name", "Schnorr-sig")
        #expect([hex(s.challengeBytes("probe", count: 32))] == (try expected("merlin-signing-context-substrate")))
    }

    @Test(arguments: ["strobe-state-after-merlin-init", "strobe-state-after-dom-sep", "strobe-state-signing-context"])
    func strobeStateCheckpointsMatch(id: String) throws {
        let v = try Vectors.entry("merlin.json", id)
        let strobe: Strobe128
        switch id {
        case "strobe-state-after-merlin-init":
            strobe = Array("Merlin v1.0".utf8).withUnsafeBytes { Strobe128(protocolLabel: $0) }
        case "strobe-state-after-dom-sep":
            strobe = MerlinTranscript("SigningContext").strobe
        default:
            var t = MerlinTranscript("SigningContext")
            t.append("", "substrate")
            t.append("sign-bytes", "this is a message")
            strobe = t.strobe
        }
        #expect(hex(strobe.stateBytes) == (try v.string("state")))
        #expect(strobe.pos == (try v.int("pos")))
        #expect(Int(strobe.posBegin) == (try v.int("pos_begin")))
        #expect(Int(strobe.curFlags) == (try v.int("cur_flags")))
    }

    @Test func sr25519SigningTranscriptInternalsMatch() throws {
        let v = try Vectors.entry("merlin.json", "sr25519-sign-transcript-zero-rng")
        let pair = try Sr25519KeyPair(
            seed: try Hex.decode(
                "0xfac7959dbfe72f052e5a0c3c8d6530f202b02fd8f9f5ca3580ec8deb7797479e", prefix: .required))
        #expect(pair.publicKey == (try v.hex("public_key")))
        let message = Array("this is a message".utf8)
        let zero = [UInt8](repeating: 0, count: 32)
        let sig = try zero.withUnsafeBytes { r in try message.withUnsafeBytes { try pair.sign($0, random32: r) } }
        #expect(sig == (try v.hex("signature")))
        #expect(Array(sig[0..<32]) == (try v.hex("R")))
    }

    @Test func sr25519HardAndSoftDerivationTranscriptsMatch() throws {
        let hard = try Vectors.entry("merlin.json", "sr25519-hdkd-hard-alice")
        let root = try Sr25519KeyPair(
            seed: try Hex.decode(
                "0xfac7959dbfe72f052e5a0c3c8d6530f202b02fd8f9f5ca3580ec8deb7797479e", prefix: .required))
        #expect(root.schnorrkelSecretKey.unsafeExposedBytes().prefix(32).elementsEqual(try hard.hex("secret_scalar")))
        let alice = try root.deriveHard(chainCode: try hard.hex("chain_code"))
        #expect(alice.seed?.unsafeExposedBytes() == (try hard.hex("hdkd_hard")))
        #expect(alice.publicKey == (try hard.hex("derived_public_key")))

        let soft = try Vectors.entry("merlin.json", "sr25519-hdkd-soft-foo")
        let cc = try soft.hex("chain_code")
        let zero = [UInt8](repeating: 0, count: 32)
        let foo = try zero.withUnsafeBytes { try root.deriveSoft(chainCode: cc, random32: $0) }
        #expect(foo.publicKey == (try soft.hex("derived_public_key")))
        #expect(foo.ed25519FormSecretKey.unsafeExposedBytes() == (try soft.hex("derived_secret_key_zero_rng")))
        #expect(
            try Sr25519KeyPair.deriveSoft(publicKey: root.publicKey, chainCode: cc)
                == (try soft.hex("derived_public_key")))
    }
}
