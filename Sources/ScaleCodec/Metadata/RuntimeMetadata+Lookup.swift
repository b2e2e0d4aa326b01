extension RuntimeMetadata {
    /// The pallet whose index is `index` (the first byte of a call).
    package func pallet(index: UInt8) -> PalletMetadata? { pallets.first { $0.index == index } }

    /// The pallet named `name`, as the metadata spells it (`Balances`).
    package func pallet(named name: String) -> PalletMetadata? { pallets.first { $0.name == name } }

    /// A constant's SCALE value (e.g. `System.SS58Prefix`).
    package func constant(pallet: String, name: String) -> PalletConstant? {
        self.pallet(named: pallet)?.constants.first { $0.name == name }
    }

    /// The chain's SS58 address prefix from `System.SS58Prefix` (a `u16`; older chains a `u8`).
    package var ss58Prefix: UInt16? {
        guard let c = constant(pallet: "System", name: "SS58Prefix") else { return nil }
        switch c.value.count {
        case 1: return UInt16(c.value[0])
        case 2: return UInt16(c.value[0]) | UInt16(c.value[1]) << 8
        default: return nil
        }
    }

    /// The spec version from the `System.Version` constant (`RuntimeVersion`), when present.
    package var specVersion: UInt32? { runtimeVersion?.specVersion }

    /// The `RuntimeVersion` in `System.Version`: spec name and version, transaction version.
    package var runtimeVersion: (specName: String, specVersion: UInt32, transactionVersion: UInt32)? {
        guard let c = constant(pallet: "System", name: "Version") else { return nil }
        // sp_version::RuntimeVersion: spec_name, impl_name (strings), authoring_version,
        // spec_version, impl_version (u32), apis (Vec<([u8;8], u32)>), transaction_version (u32), …
        var r = ScaleReader(c.value)
        guard let specName = try? r.readString(), (try? r.readString()) != nil, (try? r.readU32()) != nil,
            let spec = try? r.readU32(), (try? r.readU32()) != nil,
            let apiCount = try? r.readLength(minimumElementSize: 12), (try? r.skip(apiCount * 12)) != nil,
            let tx = try? r.readU32()
        else { return nil }
        return (specName, spec, tx)
    }

    /// The id of the outer `RuntimeCall` enum: v15+ from the outer enums, v14 from the
    /// `Call` parameter of the extrinsic type.
    package var runtimeCallType: UInt32? {
        if let outerEnums { return outerEnums.callType }
        if let call = extrinsic.callType { return call }
        guard let ext = extrinsic.extrinsicType, let t = try? registry.type(ext) else { return nil }
        return t.params.first { $0.name == "Call" }?.type
    }

    /// Signed extensions in runtime order for extrinsic v4. From v16 on, the runtime lists its
    /// extensions once and names, per transaction-extension version, which it uses: version 0 is
    /// the set v4 extrinsics carry (frame-metadata v16 `transaction_extensions_by_version`).
    package var signedExtensionsForV4: [SignedExtensionMetadata] {
        guard version >= 16, let set = extrinsic.extensionsByVersion.first(where: { $0.version == 0 }) else {
            return extrinsic.signedExtensions
        }
        let all = extrinsic.signedExtensions
        return set.indices.compactMap { i in Int(exactly: i).flatMap { $0 < all.count ? all[$0] : nil } }
    }

    /// Signed extension identifiers in runtime order (the list a payload's `signedExtensions` should equal).
    package var signedExtensionIdentifiers: [String] { signedExtensionsForV4.map(\.identifier) }
}
