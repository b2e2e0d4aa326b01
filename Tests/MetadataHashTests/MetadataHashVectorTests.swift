import Foundation
import MetadataHash
import Primitives
import ScaleCodec
import Testing

/// The published metadata hashes (Resources/vectors.json: the merkleized-metadata crate's and
/// dedot's own test values) reproduced byte for byte.
@Suite struct MetadataHashVectorTests {
    struct Vector: CustomTestStringConvertible, Sendable {
        let metadata: String
        let extra: ExtraInfo
        let hash: String
        let source: String
        var testDescription: String { "\(metadata) \(extra.specName)/\(extra.specVersion)" }
    }

    static let vectors: [Vector] = {
        guard let file = try? TestResources.json("vectors.json"), let list = file["vectors"] as? [[String: Any]] else {
            return []
        }
        return list.compactMap { v in
            guard let metadata = v["metadata"] as? String, let e = v["extraInfo"] as? [String: Any],
                let hash = v["metadataHash"] as? String, let source = v["source"] as? String,
                let specVersion = e["specVersion"] as? Int, let specName = e["specName"] as? String,
                let prefix = e["base58Prefix"] as? Int, let decimals = e["decimals"] as? Int,
                let symbol = e["tokenSymbol"] as? String,
                let sv = UInt32(exactly: specVersion), let p = UInt16(exactly: prefix), let d = UInt8(exactly: decimals)
            else { return nil }
            return Vector(
                metadata: metadata,
                extra: ExtraInfo(
                    specVersion: sv, specName: specName, base58Prefix: p, decimals: d, tokenSymbol: symbol),
                hash: hash, source: source)
        }
    }()

    @Test func everyVectorIsLoaded() {
        #expect(Self.vectors.count == 7)
    }

    @Test(arguments: vectors)
    func metadataHashEqualsThePublishedOne(vector: Vector) throws {
        let metadata = try TestResources.metadata(vector.metadata)
        let digest = try MetadataDigest(metadata: metadata, extra: vector.extra)
        #expect(hex(digest.hash) == vector.hash, "\(vector.source)")
    }

    /// dedot's vectors take spec name, version and prefix from the metadata itself: so does
    /// `ExtraInfo(metadata:decimals:tokenSymbol:)`.
    @Test(arguments: vectors.filter { $0.source.hasPrefix("dedot") })
    func extraInfoFromTheMetadataMatchesDedotsValues(vector: Vector) throws {
        let metadata = try TestResources.metadata(vector.metadata)
        let derived = try ExtraInfo(
            metadata: metadata, decimals: vector.extra.decimals, tokenSymbol: vector.extra.tokenSymbol)
        #expect(derived == vector.extra)
    }

    @Test func changingAnyExtraFieldChangesTheHash() throws {
        let metadata = try TestResources.metadata("acala-v15.scale")
        let roots = try MetadataRoots(metadata: metadata)
        let base = ExtraInfo(specVersion: 1, specName: "nice", base58Prefix: 1, decimals: 1, tokenSymbol: "lol")
        var variants = [base]
        variants.append(with(base) { $0.specVersion = 2 })
        variants.append(with(base) { $0.specName = "nicf" })
        variants.append(with(base) { $0.base58Prefix = 257 })
        variants.append(with(base) { $0.decimals = 2 })
        variants.append(with(base) { $0.tokenSymbol = "lo" })
        let hashes = Set(variants.map { MetadataDigest(roots: roots, extra: $0).hash })
        #expect(hashes.count == variants.count)
    }

    /// The digest's encoding, field by field (RFC-0078 "Metadata digest").
    @Test func digestEncodingIsVersionOneThenTheFieldsInOrder() {
        let roots = MetadataRoots(
            typesTreeRoot: [UInt8](repeating: 0xAA, count: 32),
            extrinsicMetadataHash: [UInt8](repeating: 0xBB, count: 32),
            leafCount: 0)
        let extra = ExtraInfo(
            specVersion: 0x0102_0304, specName: "dot", base58Prefix: 0x0506, decimals: 10, tokenSymbol: "DOT")
        let encoded = MetadataDigest(roots: roots, extra: extra).encoded
        let expected: [UInt8] =
            [1] + [UInt8](repeating: 0xAA, count: 32) + [UInt8](repeating: 0xBB, count: 32)
            + [0x04, 0x03, 0x02, 0x01] + [12] + Array("dot".utf8) + [0x06, 0x05] + [10] + [12] + Array("DOT".utf8)
        #expect(encoded == expected)
    }

    @Test(arguments: [UInt8(14), 16])
    func otherMetadataVersionsAreRefused(version: UInt8) throws {
        var metadata = try TestResources.metadata("acala-v15.scale")
        metadata.version = version
        #expect(throws: MetadataHashError(.unsupportedVersion, "")) { try TypeInformation(metadata: metadata) }
    }
}

func with<T>(_ value: T, _ change: (inout T) -> Void) -> T {
    var copy = value
    change(&copy)
    return copy
}
