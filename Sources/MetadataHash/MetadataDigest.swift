import Primitives
import ScaleCodec
import SigningKeys

/// What RFC-0078's digest takes besides the metadata: the runtime's spec version and name, the
/// SS58 prefix, and the native token's decimals and symbol (the crate's `ExtraInfo`).
package struct ExtraInfo: Hashable, Sendable {
    package var specVersion: UInt32
    package var specName: String
    package var base58Prefix: UInt16
    package var decimals: UInt8
    package var tokenSymbol: String

    package init(specVersion: UInt32, specName: String, base58Prefix: UInt16, decimals: UInt8, tokenSymbol: String) {
        self.specVersion = specVersion
        self.specName = specName
        self.base58Prefix = base58Prefix
        self.decimals = decimals
        self.tokenSymbol = tokenSymbol
    }

    /// The chain's own values: spec name and version from the metadata's `System.Version`
    /// constant, the prefix from `System.SS58Prefix`; decimals and symbol (not in the metadata)
    /// given. - Throws: `invalidInput` when the metadata lacks either constant.
    package init(metadata: RuntimeMetadata, decimals: UInt8, tokenSymbol: String) throws {
        guard let version = metadata.runtimeVersion else {
            throw MetadataHashError(.invalidInput, "the metadata has no decodable System.Version constant")
        }
        guard let prefix = metadata.ss58Prefix else {
            throw MetadataHashError(.invalidInput, "the metadata has no System.SS58Prefix constant")
        }
        self.init(
            specVersion: version.specVersion, specName: version.specName, base58Prefix: prefix, decimals: decimals,
            tokenSymbol: tokenSymbol)
    }
}

/// The two hashes of the digest that depend on the metadata: the type tree's root and the
/// extrinsic layout's hash. Computing them is the expensive part (``MetadataHashCache`` keeps them).
package struct MetadataRoots: Hashable, Sendable {
    package var typesTreeRoot: [UInt8]
    package var extrinsicMetadataHash: [UInt8]
    /// How many leaves the tree has (informational).
    package var leafCount: Int

    package init(typesTreeRoot: [UInt8], extrinsicMetadataHash: [UInt8], leafCount: Int) {
        self.typesTreeRoot = typesTreeRoot
        self.extrinsicMetadataHash = extrinsicMetadataHash
        self.leafCount = leafCount
    }

    /// From converted type information.
    package init(_ info: TypeInformation) {
        self.init(
            typesTreeRoot: info.tree.root, extrinsicMetadataHash: info.extrinsic.hash, leafCount: info.leaves.count)
    }

    /// Converts v15 metadata and hashes it. - Throws: as ``TypeInformation/init(metadata:)``.
    package init(metadata: RuntimeMetadata) throws { self.init(try TypeInformation(metadata: metadata)) }
}

/// RFC-0078 `MetadataDigest::V1`; its ``hash`` is the metadata hash that `CheckMetadataHash`
/// puts into the signed data (`Some(hash)` when the extrinsic's `mode` is 1).
///
/// SCALE: variant index 1, `types_tree_root: [u8; 32]`, `extrinsic_metadata_hash: [u8; 32]`,
/// `spec_version: u32`, `spec_name: String`, `base58_prefix: u16`, `decimals: u8`,
/// `token_symbol: String`; the hash is BLAKE3 of that.
package struct MetadataDigest: Hashable, Sendable {
    package var roots: MetadataRoots
    package var extra: ExtraInfo

    package init(roots: MetadataRoots, extra: ExtraInfo) {
        self.roots = roots
        self.extra = extra
    }

    /// Computes the digest of v15 metadata. - Throws: as ``TypeInformation/init(metadata:)``.
    package init(metadata: RuntimeMetadata, extra: ExtraInfo) throws {
        self.init(roots: try MetadataRoots(metadata: metadata), extra: extra)
    }

    /// The SCALE encoding of `MetadataDigest::V1`.
    package var encoded: [UInt8] {
        var w = ScaleWriter(capacity: 128)
        w.writeU8(1)
        w.write(raw: roots.typesTreeRoot)
        w.write(raw: roots.extrinsicMetadataHash)
        w.writeU32(extra.specVersion)
        w.writeString(extra.specName)
        w.writeU16(extra.base58Prefix)
        w.writeU8(extra.decimals)
        w.writeString(extra.tokenSymbol)
        return w.bytes
    }

    /// The metadata hash: BLAKE3 of ``encoded`` (32 bytes).
    package var hash: [UInt8] { Blake3.hash(encoded) }
}
