import Primitives
/// Runtime metadata, versions 14, 15 and 16 (`frame_metadata::RuntimeMetadataPrefixed`).
///
/// Bytes: the magic `meta` (`0x6d657461`), a version byte, then the version's structure. Decoding
/// keeps every field, so ``encoded`` reproduces the input byte for byte; it fails on trailing
/// bytes. Untrusted input: every length is checked before allocation and every type id is
/// checked when used. Not deterministic in time only in the sense of input size: linear.
package struct RuntimeMetadata: Hashable, Sendable {
    /// The metadata version: 14, 15 or 16.
    package var version: UInt8
    /// The portable type registry.
    package var registry: PortableRegistry
    /// Pallets in metadata order.
    package var pallets: [PalletMetadata]
    /// Extrinsic format and signed extensions.
    package var extrinsic: ExtrinsicMetadata
    /// v14/v15: the runtime type.
    package var runtimeType: UInt32?
    /// v15+: runtime APIs.
    package var apis: [RuntimeApiMetadata]
    /// v15+: outer enums.
    package var outerEnums: OuterEnums?
    /// v15+: custom values.
    package var custom: [CustomValue]

    /// The `meta` magic, little-endian `u32` 0x6174656d.
    package static let magic: [UInt8] = [0x6d, 0x65, 0x74, 0x61]

    /// Decodes metadata from its full bytes (as `state_getMetadata` or a dapp's `rawMetadata` gives).
    /// - Throws: `invalidMagic`, `unsupportedVersion` (not 14–16), any SCALE error with its offset,
    ///   or `trailingBytes`.
    package init(bytes: [UInt8]) throws {
        self = try ScaleReader.decode(bytes) { r in try RuntimeMetadata(from: &r) }
    }

    /// Reads metadata from a reader; on error the reader is left where it was.
    package init(from r: inout ScaleReader) throws {
        self = try r.atomically { r in try RuntimeMetadata(reading: &r) }
    }

    private init(reading r: inout ScaleReader) throws {
        let magic = try r.readBytes(4)
        guard magic == Self.magic else { throw ScaleError(.invalidMagic, "metadata does not start with 'meta'") }
        let v = try r.readU8()
        guard (14...16).contains(v) else {
            throw ScaleError(.unsupportedVersion, "metadata version \(v) (only 14, 15 and 16 are decoded)")
        }
        version = v
        registry = try PortableRegistry(from: &r)
        pallets = try r.readVector { r in try PalletMetadata(from: &r, version: v) }
        extrinsic = try ExtrinsicMetadata(from: &r, version: v)
        runtimeType = v <= 15 ? try r.readCompact(as: UInt32.self) : nil
        if v >= 15 {
            apis = try r.readVector { r in try RuntimeApiMetadata(from: &r, version: v) }
            outerEnums = try OuterEnums(from: &r)
            custom = try r.readVector { r in try CustomValue(from: &r) }
        } else {
            apis = []
            outerEnums = nil
            custom = []
        }
    }

    /// Appends the SCALE encoding, prefix included.
    package func encode(to w: inout ScaleWriter) {
        w.write(raw: Self.magic)
        w.writeU8(version)
        registry.encode(to: &w)
        w.writeVector(pallets) { w, p in p.encode(to: &w, version: version) }
        extrinsic.encode(to: &w, version: version)
        if version <= 15 { w.writeCompact(runtimeType ?? 0) }
        if version >= 15 {
            w.writeVector(apis) { w, a in a.encode(to: &w, version: version) }
            if let outerEnums { outerEnums.encode(to: &w) }
            w.writeVector(custom) { w, c in c.encode(to: &w) }
        }
    }

    /// The full encoding (identical to the decoded input).
    package var encoded: [UInt8] {
        var w = ScaleWriter()
        encode(to: &w)
        return w.bytes
    }
}
