import Foundation
import Primitives
import Testing

@testable import SigningKeys

/// BLAKE3 against the official test vectors: Resources/blake3-test-vectors.json is
/// `test_vectors/test_vectors.json` of the BLAKE3-team/BLAKE3 repository (commit 77b257ee),
/// copied unchanged. Inputs are the repeating bytes 0…250; each `hash` is a 131-byte extended
/// output whose first 32 bytes are the default digest. Only the hash mode is implemented, so the
/// `keyed_hash` and `derive_key` columns are not used.
@Suite struct Blake3Tests {
    struct Case: CustomTestStringConvertible, Sendable {
        let inputLength: Int
        let hash: String
        var testDescription: String { "\(inputLength) bytes" }
    }

    static let cases: [Case] = {
        guard
            let url = Bundle.module.url(forResource: "Resources/blake3-test-vectors", withExtension: "json")
                ?? Bundle.module.url(forResource: "blake3-test-vectors", withExtension: "json"),
            let data = try? Data(contentsOf: url),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let list = object["cases"] as? [[String: Any]]
        else { return [] }
        return list.compactMap { c in
            guard let n = c["input_len"] as? Int, let h = c["hash"] as? String else { return nil }
            return Case(inputLength: n, hash: h)
        }
    }()

    static func input(_ length: Int) -> [UInt8] { (0..<length).map { UInt8($0 % 251) } }

    @Test func allOfficialCasesAreLoaded() {
        #expect(Self.cases.count == 35)
        #expect(Self.cases.last?.inputLength == 102_400)
    }

    @Test(arguments: cases)
    func extendedOutputMatchesTheOfficialVector(c: Case) throws {
        let expected = try Hex.decode(c.hash, prefix: .forbidden)
        var state = Blake3()
        state.update(Self.input(c.inputLength))
        #expect(state.finalize(outputLength: expected.count) == expected)
        #expect(Blake3.hash(Self.input(c.inputLength)) == Array(expected.prefix(32)))
    }

    /// Updates split at awkward places (inside blocks, on block and chunk boundaries) give the
    /// one-shot result, and finalizing does not disturb the state.
    @Test(arguments: [1, 7, 63, 64, 65, 1000, 1024, 1025, 4096])
    func incrementalUpdatesEqualOneShot(step: Int) throws {
        let data = Self.input(9000)
        var state = Blake3()
        var offset = 0
        while offset < data.count {
            let end = min(data.count, offset + step)
            state.update(data[offset..<end])
            offset = end
            if offset == 4096 { #expect(state.finalize() == Blake3.hash(data[0..<4096])) }
        }
        #expect(state.finalize() == Blake3.hash(data))
        #expect(state.finalize(outputLength: 200).prefix(32) == Blake3.hash(data)[...])
    }

    @Test func nodeHashOfTwoHashesEqualsTheHashOfTheirConcatenation() {
        let left = Blake3.hash(Array("left".utf8))
        let right = Blake3.hash(Array("right".utf8))
        #expect(Blake3.hash(concatenating: left, right) == Blake3.hash(left + right))
        #expect(Blake3.hash(concatenating: [1, 2], [3]) == Blake3.hash([1, 2, 3]))
    }

    @Test func outputLengthZeroIsEmpty() {
        #expect(Blake3().finalize(outputLength: 0).isEmpty)
    }

    @Test func nonContiguousSequencesAreAccepted() {
        let bytes = Self.input(3000)
        #expect(Blake3.hash(bytes.lazy.map { $0 }) == Blake3.hash(bytes))
    }
}
