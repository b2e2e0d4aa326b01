import Primitives
import ScaleCodec

/// Runtime metadata v15 in RFC-0078's form: the extrinsic layout and the leaves of the type tree,
/// in tree order (docs/reference/metadata-hash.md §3).
///
/// 1. Collect the types reachable from the extrinsic's address, call and signature types and each
///    signed extension's two types, through fields, variants, sequences, arrays and tuples (not
///    into `Compact` or bit-sequence parameters, which become inline references).
/// 2. Keep those that are not primitive, not `Compact`, and not an empty composite, tuple or enum;
///    ascending metadata id gives each its new id `0, 1, 2, …`.
/// 3. Convert each kept type: references become ``TypeRef``s, docs and generic parameters are
///    dropped, an enum becomes one leaf per variant sorted by variant index.
///
/// Same result as the `merkleized-metadata` crate's `FrameMetadataPrepared::as_type_information`.
/// Untrusted input: every id is looked up (`unknownType`), every walk is iterative (no recursion
/// on metadata depth), and nothing traps.
package struct TypeInformation: Hashable, Sendable {
    /// The extrinsic's types.
    package var extrinsic: ExtrinsicLayout
    /// The leaves, by new id and, for an enum, by variant index.
    package var leaves: [TypeLeaf]
    /// The metadata type id of each new id (`metadataIds[newId]`).
    package var metadataIds: [UInt32]

    /// Converts v15 metadata. - Throws: `unsupportedVersion` for other versions, `unknownType`,
    ///   `unsupportedType` (see ``MetadataHashError/Code``).
    package init(metadata: RuntimeMetadata) throws {
        guard metadata.version == 15 else {
            throw MetadataHashError(
                .unsupportedVersion,
                "RFC-0078 defines the metadata hash on metadata v15, not v\(metadata.version) "
                    + "(ask the node for Metadata_metadata_at_version(15))")
        }
        let ext = metadata.extrinsic
        guard let address = ext.addressType, let call = ext.callType, let signature = ext.signatureType,
            let version = ext.versions.first
        else { throw MetadataHashError(.invalidInput, "v15 extrinsic metadata without its types") }

        var converter = Converter(registry: metadata.registry)
        var roots = [call, address, signature]
        for e in ext.signedExtensions { roots += [e.type, e.additionalSigned] }
        let kept = try converter.keptTypes(reachableFrom: roots)

        extrinsic = ExtrinsicLayout(
            version: version,
            addressType: try converter.reference(address),
            callType: try converter.reference(call),
            signatureType: try converter.reference(signature),
            signedExtensions: try ext.signedExtensions.map { e in
                ExtrinsicLayout.Extension(
                    identifier: e.identifier, includedInExtrinsic: try converter.reference(e.type),
                    includedInSignedData: try converter.reference(e.additionalSigned))
            })
        var leaves: [TypeLeaf] = []
        leaves.reserveCapacity(kept.count * 2)
        for (newId, id) in kept.enumerated() {
            try converter.appendLeaves(of: id, newId: UInt32(newId), to: &leaves)
        }
        self.leaves = leaves
        metadataIds = kept
    }

    /// The merkle tree over the leaves' hashes.
    package var tree: MerkleTree { MerkleTree(leafHashes: leaves.map(\.hash)) }
}

/// The conversion's state: the registry, the new ids, and the `Compact` references already resolved.
private struct Converter {
    let registry: PortableRegistry
    var newIds: [UInt32: UInt32] = [:]
    var compactRefs: [UInt32: TypeRef] = [:]

    init(registry: PortableRegistry) { self.registry = registry }

    func type(_ id: UInt32) throws -> TypeInfo {
        do { return try registry.type(id) } catch {
            throw MetadataHashError(.unknownType, "type id \(id) is not in the metadata's registry")
        }
    }

    /// Whether a type becomes leaves (step 2): not primitive, not `Compact`, not empty.
    static func isKept(_ t: TypeInfo) -> Bool {
        switch t.def {
        case .primitive, .compact: return false
        case .composite(let fields): return !fields.isEmpty
        case .variant(let variants): return !variants.isEmpty
        case .tuple(let elements): return !elements.isEmpty
        case .sequence, .array, .bitSequence: return true
        }
    }

    /// Steps 1 and 2: the kept types reachable from `roots`, ascending; assigns their new ids.
    mutating func keptTypes(reachableFrom roots: [UInt32]) throws -> [UInt32] {
        var seen = Set<UInt32>()
        var stack = roots
        while let id = stack.popLast() {
            guard seen.insert(id).inserted else { continue }
            switch try type(id).def {
            case .composite(let fields): stack += fields.map(\.type)
            case .variant(let variants): for v in variants { stack += v.fields.map(\.type) }
            case .sequence(let element), .array(_, let element): stack.append(element)
            case .tuple(let elements): stack += elements
            case .primitive, .compact, .bitSequence: break
            }
        }
        var kept: [UInt32] = []
        for id in seen.sorted() where Self.isKept(try type(id)) {
            newIds[id] = UInt32(kept.count)
            kept.append(id)
        }
        return kept
    }

    /// A reference to metadata type `id` (step 3).
    mutating func reference(_ id: UInt32) throws -> TypeRef {
        let t = try type(id)
        switch t.def {
        case .primitive(let p): return TypeRef(p)
        case .compact: return try compactReference(id)
        case .composite(let fields) where fields.isEmpty: return .void
        case .variant(let variants) where variants.isEmpty: return .void
        case .tuple(let elements) where elements.isEmpty: return .void
        default:
            guard let newId = newIds[id] else {
                throw MetadataHashError(
                    .unknownType, "type id \(id) is referenced but not reachable from the extrinsic")
            }
            return .byId(newId)
        }
    }

    /// `Compact<T>` as `CompactU8`…`CompactU256`: the one primitive reachable from the compact
    /// type (through wrappers such as `Perbill(u32)`), or `Void` when there is none (`Compact<()>`).
    mutating func compactReference(_ id: UInt32) throws -> TypeRef {
        if let known = compactRefs[id] { return known }
        let found = try primitives(reachableFrom: id)
        let ref: TypeRef
        switch found.first {
        case nil: ref = .void
        case .u8?: ref = .compactU8
        case .u16?: ref = .compactU16
        case .u32?: ref = .compactU32
        case .u64?: ref = .compactU64
        case .u128?: ref = .compactU128
        case .u256?: ref = .compactU256
        case let other?:
            throw MetadataHashError(.unsupportedType, "type \(id) is a Compact of \(other), not an unsigned integer")
        }
        guard found.count <= 1 else {
            throw MetadataHashError(.unsupportedType, "type \(id) is a Compact over more than one primitive")
        }
        compactRefs[id] = ref
        return ref
    }

    /// The primitive types reachable from `start` (itself included), one entry per distinct type
    /// id, through every kind of type parameter. Stops after the second: callers accept one.
    func primitives(reachableFrom start: UInt32) throws -> [PrimitiveType] {
        var visited = Set<UInt32>()
        var found: [PrimitiveType] = []
        var stack = [start]
        while let id = stack.popLast(), found.count < 2 {
            func visit(_ child: UInt32) { if visited.insert(child).inserted { stack.append(child) } }
            switch try type(id).def {
            case .primitive(let p): found.append(p)
            case .composite(let fields): for f in fields { visit(f.type) }
            case .variant(let variants): for v in variants { for f in v.fields { visit(f.type) } }
            case .sequence(let e), .array(_, let e), .compact(let e): visit(e)
            case .tuple(let elements): for e in elements { visit(e) }
            case .bitSequence(let store, let order):
                visit(order)
                visit(store)
            }
        }
        return found
    }

    /// Step 3 for one kept type: its leaf, or one leaf per variant for an enum.
    mutating func appendLeaves(of id: UInt32, newId: UInt32, to leaves: inout [TypeLeaf]) throws {
        let t = try type(id)
        func convert(_ fields: [TypeField]) throws -> [LeafField] {
            try fields.map { f in LeafField(name: f.name, type: try reference(f.type), typeName: f.typeName) }
        }
        let definition: TypeLeaf.Definition
        switch t.def {
        case .variant(let variants):
            // Sorted by index (stably); of variants sharing an index the last one counts, as in
            // the reference implementation's map keyed by (type id, variant index).
            var chosen: [TypeVariant] = []
            for v in variants.enumerated().sorted(by: { ($0.element.index, $0.offset) < ($1.element.index, $1.offset) })
            {
                if chosen.last?.index == v.element.index {
                    chosen[chosen.count - 1] = v.element
                } else {
                    chosen.append(v.element)
                }
            }
            for v in chosen {
                let variant = LeafVariant(name: v.name, fields: try convert(v.fields), index: UInt32(v.index))
                leaves.append(TypeLeaf(path: t.path, definition: .enumeration(variant), typeId: newId))
            }
            return
        case .composite(let fields): definition = .composite(try convert(fields))
        case .sequence(let element): definition = .sequence(try reference(element))
        case .array(let length, let element): definition = .array(length: length, element: try reference(element))
        case .tuple(let elements): definition = .tuple(try elements.map { try reference($0) })
        case .bitSequence(let store, let order): definition = try bitSequence(id, store: store, order: order)
        case .primitive, .compact: return  // not kept
        }
        leaves.append(TypeLeaf(path: t.path, definition: definition, typeId: newId))
    }

    /// A bit sequence: the byte width of its store's one primitive (`u8`…`u64`), and whether its
    /// order type's path names `Lsb0` (else it must name `Msb0`).
    func bitSequence(_ id: UInt32, store: UInt32, order: UInt32) throws -> TypeLeaf.Definition {
        let found = try primitives(reachableFrom: store)
        let numBytes: UInt8
        switch (found.count, found.first) {
        case (1, .u8?): numBytes = 1
        case (1, .u16?): numBytes = 2
        case (1, .u32?): numBytes = 4
        case (1, .u64?): numBytes = 8
        default:
            throw MetadataHashError(.unsupportedType, "bit sequence \(id): the store type is not one of u8…u64")
        }
        guard let name = try type(order).path.first(where: { $0 == "Lsb0" || $0 == "Msb0" }) else {
            throw MetadataHashError(.unsupportedType, "bit sequence \(id): the order type is neither Lsb0 nor Msb0")
        }
        return .bitSequence(numBytes: numBytes, leastSignificantBitFirst: name == "Lsb0")
    }
}
