import CSodium
import Primitives
import Testing

@testable import SigningKeys

@Suite struct HashTests {
    @Test func keccakF1600OfTheZeroStateMatchesTheKnownAnswer() {
        var lanes = [UInt64](repeating: 0, count: 25)
        lanes.withUnsafeMutableBufferPointer { KeccakF1600.permute($0.baseAddress.unsafelyUnwrapped) }
        #expect(lanes[0] == 0xF125_8F79_40E1_DDE7)
        #expect(lanes[1] == 0x84D5_CCF9_33C0_478A)
    }

    @Test func keccak256MatchesEthereumKnownAnswers() {
        #expect(hex(Keccak256.hash([])) == "0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470")
        #expect(
            hex(Keccak256.hash(Array("abc".utf8)))
                == "0x4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45")
        // Crosses the 136-byte rate.
        let long = [UInt8](repeating: 0x61, count: 200)
        #expect(Keccak256.hash(long).count == 32)
    }

    @Test func blake2bMatchesRFC7693AndSubstrateKnownAnswers() throws {
        // RFC 7693 Appendix A: BLAKE2b-512("abc").
        #expect(
            hex(Blake2b.hash512(Array("abc".utf8)))
                == "0xba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923"
        )
        // blake2_256("") as used for the sp-core ecdsa vector (docs/reference/crypto.md §6.1).
        #expect(hex(Blake2b.hash256([])) == "0x0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8")
    }

    @Test(arguments: [1, 15, 16, 20, 31, 32, 33, 48, 63, 64])
    func blake2bAgreesWithLibsodiumForEveryLengthAndKey(length: Int) throws {
        for size in [0, 1, 127, 128, 129, 255, 256, 1000] {
            let data = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ length) }
            let key = (0..<(length % 3 == 0 ? 0 : 32)).map { UInt8(truncatingIfNeeded: $0 &+ 1) }
            let ours = try Blake2b.hash(data, outputLength: length, key: key)
            #expect(ours.count == length)
            if length >= 16 {  // libsodium supports 16…64
                var theirs = [UInt8](repeating: 0, count: length)
                _ = theirs.withUnsafeMutableBufferPointer { out in
                    data.withNonNullPointer { d, n in
                        key.withNonNullPointer { k, kn in
                            crypto_generichash(
                                out.baseAddress.unsafelyUnwrapped, length, d, UInt64(n), kn == 0 ? nil : k, kn)
                        }
                    }
                }
                #expect(ours == theirs, "length \(length) size \(size)")
            }
        }
    }

    @Test func blake2bIncrementalUpdatesEqualOneShot() throws {
        let data = (0..<777).map { UInt8(truncatingIfNeeded: $0) }
        var state = try Blake2b(outputLength: 40)
        state.update(data[0..<100])
        state.update(data[100..<128])
        state.update(data[128...])
        #expect(state.finalize() == (try Blake2b.hash(data, outputLength: 40)))
    }

    /// Contiguous input (taken block by block) and any other sequence (byte by byte), in chunks
    /// that end before, at and after block boundaries, give the one-shot digest.
    @Test(arguments: [[0], [1, 127, 0, 128, 1], [128, 128], [129, 255, 3], [64, 64, 64, 64, 1], [300]])
    func blake2bUpdatesInAnyChunksAndShapesAgree(chunks: [Int]) throws {
        let data = (0..<chunks.reduce(0, +)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
        let expected = try Blake2b.hash(data, outputLength: 64)
        var contiguous = try Blake2b(outputLength: 64)
        var lazy = try Blake2b(outputLength: 64)
        var offset = 0
        for size in chunks {
            contiguous.update(data[offset..<(offset + size)])
            lazy.update(data[offset..<(offset + size)].lazy.map { $0 })
            offset += size
        }
        #expect(contiguous.finalize() == expected)
        #expect(lazy.finalize() == expected)
        #expect(Blake2b.hash512(data) == expected)
        #expect(Blake2b.hash512(data.lazy.map { $0 }) == expected)
    }

    @Test(arguments: [0, 65, -1, 1000])
    func blake2bRejectsInvalidOutputLengths(length: Int) {
        #expect(throws: KeyError(.invalidInput, "")) { try Blake2b(outputLength: length) }
    }

    @Test func blake2bRejectsOverlongKeys() {
        #expect(throws: KeyError(.invalidInput, "")) {
            try Blake2b(outputLength: 32, key: [UInt8](repeating: 1, count: 65))
        }
    }
}
