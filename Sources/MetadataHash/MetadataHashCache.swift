import Primitives
import ScaleCodec
import Synchronization

/// Metadata hashes computed once per (genesis hash, spec version) and then served from memory.
///
/// Converting and hashing a runtime's metadata takes milliseconds (scripts/bench-metadata-hash);
/// the digest of cached ``MetadataRoots`` with an ``ExtraInfo`` is one BLAKE3 of ~100 bytes. The
/// cache keeps the roots, not the final hash, so the extra information is always the caller's.
///
/// Invariant the caller keeps: for a given key, `metadata` returns the one metadata the person
/// approved for that chain and runtime version (a site cannot add another one under the same key
/// without approval). When stored metadata is replaced, call ``removeAll(genesisHash:)``. A
/// metadata whose `System.Version` names another spec version than the key is refused
/// (`specVersionMismatch`). Bounded: at most ``capacity`` entries, the least recently used one
/// leaves first. Thread-safe; the conversion runs outside the lock.
package final class MetadataHashCache: Sendable {
    /// (genesis hash, spec version).
    package struct Key: Hashable, Sendable {
        package var genesisHash: [UInt8]
        package var specVersion: UInt32

        package init(genesisHash: [UInt8], specVersion: UInt32) {
            self.genesisHash = genesisHash
            self.specVersion = specVersion
        }
    }

    private struct State {
        var entries: [Key: (roots: MetadataRoots, used: UInt64)] = [:]
        var clock: UInt64 = 0
        var hits = 0
        var misses = 0
    }

    /// The most entries kept.
    package let capacity: Int
    private let state = Mutex(State())

    /// Creates an empty cache holding at most `capacity` (≥ 1) entries.
    package init(capacity: Int = 32) { self.capacity = max(1, capacity) }

    /// The metadata hash for `extra` on the chain `genesisHash`, converting `metadata()` only when
    /// (genesis, `extra.specVersion`) is not cached. - Throws: `invalidInput` for a genesis hash
    /// that is not 32 bytes, `specVersionMismatch`, or what `metadata` or the conversion throws.
    package func metadataHash(
        genesisHash: [UInt8], extra: ExtraInfo, metadata: () throws -> RuntimeMetadata
    ) throws -> [UInt8] {
        try digest(genesisHash: genesisHash, extra: extra, metadata: metadata).hash
    }

    /// The whole digest (roots and extra information), as ``metadataHash(genesisHash:extra:metadata:)``.
    package func digest(
        genesisHash: [UInt8], extra: ExtraInfo, metadata: () throws -> RuntimeMetadata
    ) throws -> MetadataDigest {
        MetadataDigest(
            roots: try roots(genesisHash: genesisHash, specVersion: extra.specVersion, metadata: metadata), extra: extra
        )
    }

    /// The metadata-dependent roots for a key, computed on a miss.
    package func roots(
        genesisHash: [UInt8], specVersion: UInt32, metadata: () throws -> RuntimeMetadata
    ) throws -> MetadataRoots {
        guard genesisHash.count == 32 else {
            throw MetadataHashError(.invalidInput, "a genesis hash has 32 bytes, not \(genesisHash.count)")
        }
        let key = Key(genesisHash: genesisHash, specVersion: specVersion)
        let hit: MetadataRoots? = state.withLock { s in
            guard let entry = s.entries[key] else {
                s.misses += 1
                return nil
            }
            s.clock += 1
            s.entries[key] = (entry.roots, s.clock)
            s.hits += 1
            return entry.roots
        }
        if let hit { return hit }
        let runtime = try metadata()
        if let actual = runtime.specVersion, actual != specVersion {
            throw MetadataHashError(
                .specVersionMismatch, "the metadata is of spec version \(actual), not \(specVersion)")
        }
        let roots = try MetadataRoots(metadata: runtime)
        state.withLock { s in
            s.clock += 1
            s.entries[key] = (roots, s.clock)
            while s.entries.count > capacity, let oldest = s.entries.min(by: { $0.value.used < $1.value.used }) {
                s.entries[oldest.key] = nil
            }
        }
        return roots
    }

    /// Forgets every entry of one chain (its stored metadata changed).
    package func removeAll(genesisHash: [UInt8]) {
        state.withLock { s in s.entries = s.entries.filter { $0.key.genesisHash != genesisHash } }
    }

    /// Entries held, cache hits and misses so far.
    package var statistics: (entries: Int, hits: Int, misses: Int) {
        state.withLock { s in (s.entries.count, s.hits, s.misses) }
    }
}
