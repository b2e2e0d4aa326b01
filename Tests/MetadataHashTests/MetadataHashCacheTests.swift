import Foundation
import MetadataHash
import Primitives
import ScaleCodec
import Testing

@Suite struct MetadataHashCacheTests {
    static let genesis = [UInt8](repeating: 0x91, count: 32)

    /// Counts how often the cache asks for the metadata.
    final class Loads: @unchecked Sendable {
        var count = 0
        let metadata: RuntimeMetadata
        init(_ metadata: RuntimeMetadata) { self.metadata = metadata }
        func load() -> RuntimeMetadata {
            count += 1
            return metadata
        }
    }

    @Test func theSecondCallIsAHitAndEqualsTheDirectHash() throws {
        let loads = Loads(try TestResources.metadata("acala-v15.scale"))
        let extra = try ExtraInfo(metadata: loads.metadata, decimals: 12, tokenSymbol: "ACA")
        let cache = MetadataHashCache()
        let first = try cache.metadataHash(genesisHash: Self.genesis, extra: extra, metadata: loads.load)
        let second = try cache.metadataHash(genesisHash: Self.genesis, extra: extra, metadata: loads.load)
        #expect(first == second)
        #expect(first == (try MetadataDigest(metadata: loads.metadata, extra: extra)).hash)
        #expect(loads.count == 1)
        #expect(cache.statistics == (entries: 1, hits: 1, misses: 1))
    }

    /// The cache keeps the roots: other decimals or symbol on the same key give their own hash.
    @Test func extraInformationIsAlwaysTheCallers() throws {
        let loads = Loads(try TestResources.metadata("acala-v15.scale"))
        let cache = MetadataHashCache()
        let a = try ExtraInfo(metadata: loads.metadata, decimals: 12, tokenSymbol: "ACA")
        var b = a
        b.decimals = 10
        let hashA = try cache.metadataHash(genesisHash: Self.genesis, extra: a, metadata: loads.load)
        let hashB = try cache.metadataHash(genesisHash: Self.genesis, extra: b, metadata: loads.load)
        #expect(hashA != hashB)
        #expect(hashB == (try MetadataDigest(metadata: loads.metadata, extra: b)).hash)
        #expect(loads.count == 1)
    }

    @Test func metadataOfAnotherSpecVersionIsRefused() throws {
        let metadata = try TestResources.metadata("acala-v15.scale")
        var extra = try ExtraInfo(metadata: metadata, decimals: 12, tokenSymbol: "ACA")
        extra.specVersion += 1
        #expect(throws: MetadataHashError(.specVersionMismatch, "")) {
            try MetadataHashCache().metadataHash(genesisHash: Self.genesis, extra: extra) { metadata }
        }
    }

    @Test func aGenesisHashMustHave32Bytes() throws {
        let metadata = try TestResources.metadata("acala-v15.scale")
        let extra = try ExtraInfo(metadata: metadata, decimals: 12, tokenSymbol: "ACA")
        #expect(throws: MetadataHashError(.invalidInput, "")) {
            try MetadataHashCache().metadataHash(genesisHash: [1, 2], extra: extra) { metadata }
        }
    }

    @Test func keysAreGenesisAndSpecVersionAndTheLeastRecentlyUsedLeavesFirst() throws {
        let loads = Loads(try TestResources.metadata("acala-v15.scale"))
        let extra = try ExtraInfo(metadata: loads.metadata, decimals: 12, tokenSymbol: "ACA")
        let cache = MetadataHashCache(capacity: 2)
        let chains = (1...3).map { [UInt8](repeating: $0, count: 32) }
        _ = try cache.roots(genesisHash: chains[0], specVersion: extra.specVersion, metadata: loads.load)
        _ = try cache.roots(genesisHash: chains[1], specVersion: extra.specVersion, metadata: loads.load)
        _ = try cache.roots(genesisHash: chains[0], specVersion: extra.specVersion, metadata: loads.load)  // hit
        _ = try cache.roots(genesisHash: chains[2], specVersion: extra.specVersion, metadata: loads.load)  // evicts 1
        #expect(loads.count == 3)
        _ = try cache.roots(genesisHash: chains[0], specVersion: extra.specVersion, metadata: loads.load)  // still there
        #expect(loads.count == 3)
        _ = try cache.roots(genesisHash: chains[1], specVersion: extra.specVersion, metadata: loads.load)  // was evicted
        #expect(loads.count == 4)
        #expect(cache.statistics.entries == 2)
        cache.removeAll(genesisHash: chains[1])
        #expect(cache.statistics.entries == 1)
        _ = try cache.roots(genesisHash: chains[1], specVersion: extra.specVersion, metadata: loads.load)
        #expect(loads.count == 5)
    }

    @Test func failuresAreNotCached() throws {
        var metadata = try TestResources.metadata("acala-v15.scale")
        let extra = try ExtraInfo(metadata: metadata, decimals: 12, tokenSymbol: "ACA")
        metadata.version = 14
        let cache = MetadataHashCache()
        #expect(throws: MetadataHashError(.unsupportedVersion, "")) {
            try cache.metadataHash(genesisHash: Self.genesis, extra: extra) { metadata }
        }
        #expect(cache.statistics.entries == 0)
    }
}
