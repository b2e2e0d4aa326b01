import Foundation
import MetadataHash
import Primitives
import ScaleCodec
import SigningKeys
import Testing

/// The conversion from metadata to RFC-0078 leaves: every leaf of a real runtime against an
/// independent port's list, and each rule on small hand-built registries.
@Suite struct TypeInformationTests {
    /// Resources/polkadot-v15.leaves.tsv: leaf index, new type id, variant index or `-`, BLAKE3 of
    /// the leaf, SCALE of the leaf (an independent port that reproduces every published hash).
    @Test func everyPolkadotLeafEqualsTheIndependentPorts() throws {
        let info = try TypeInformation(metadata: TestResources.metadata("polkadot-v15.scale"))
        let rows = String(decoding: try TestResources.data("polkadot-v15.leaves.tsv"), as: UTF8.self)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t").map(String.init) }
        #expect(info.leaves.count == rows.count)
        var mismatches = 0
        for (i, (leaf, row)) in zip(info.leaves, rows).enumerated() where mismatches < 3 {
            let ours = [
                String(i), String(leaf.typeId), leaf.variantIndex.map { String($0) } ?? "-",
                String(hex(leaf.hash).dropFirst(2)), String(hex(leaf.encoded).dropFirst(2)),
            ]
            if ours != row {
                mismatches += 1
                Issue.record("leaf \(i): ours \(ours.prefix(4)), theirs \(row.prefix(4))")
            }
        }
        #expect(info.metadataIds == info.metadataIds.sorted())
        #expect(Set(info.leaves.map(\.typeId)).count == info.metadataIds.count)
    }

    // MARK: hand-built registries

    static func type(_ def: TypeDefinition, path: [String] = []) -> TypeInfo { TypeInfo(path: path, def: def) }

    /// A v15 metadata (the acala fixture's frame) whose registry and extrinsic types are replaced.
    static func metadata(
        _ types: [TypeInfo], call: UInt32, address: UInt32, signature: UInt32,
        extensions: [(String, UInt32, UInt32)] = []
    ) throws -> RuntimeMetadata {
        var m = try TestResources.metadata("acala-v15.scale")
        m.registry = PortableRegistry(
            types: types.enumerated().map { PortableType(id: UInt32($0.offset), type: $0.element) })
        m.extrinsic.callType = call
        m.extrinsic.addressType = address
        m.extrinsic.signatureType = signature
        m.extrinsic.signedExtensions = extensions.map {
            SignedExtensionMetadata(identifier: $0.0, type: $0.1, additionalSigned: $0.2)
        }
        return m
    }

    static func field(_ name: String?, _ type: UInt32, _ typeName: String? = nil) -> TypeField {
        TypeField(name: name, type: type, typeName: typeName)
    }

    /// The rules of RFC-0078 "Prune unrelated Types" and "Generating TypeRef" in one registry.
    @Test func primitivesCompactsAndEmptyTypesBecomeInlineReferences() throws {
        let types: [TypeInfo] = [
            Self.type(.primitive(.u32)),  // 0
            Self.type(.compact(0)),  // 1: Compact<u32>
            Self.type(.composite([Self.field(nil, 0)]), path: ["sp_arithmetic", "Perbill"]),  // 2
            Self.type(.compact(2)),  // 3: Compact<Perbill>
            Self.type(.tuple([])),  // 4: ()
            Self.type(.compact(4)),  // 5: Compact<()>
            Self.type(
                .composite([
                    Self.field("a", 1, "u32"), Self.field("b", 3), Self.field("c", 5), Self.field("d", 4),
                    Self.field("e", 7),
                ]), path: ["pallet", "Args"]),  // 6
            Self.type(.variant([]), path: ["Never"]),  // 7: enum with no variants
            Self.type(
                .variant([
                    TypeVariant(name: "b", fields: [Self.field(nil, 6)], index: 3, docs: ["dropped"]),
                    TypeVariant(name: "a", fields: [], index: 1),
                ]), path: ["RuntimeCall"]),  // 8
            Self.type(.primitive(.u128)),  // 9: not reachable
            Self.type(.composite([Self.field(nil, 9)]), path: ["Unreachable"]),  // 10
            Self.type(.bitSequence(store: 12, order: 13)),  // 11
            Self.type(.primitive(.u8)),  // 12
            Self.type(.composite([]), path: ["bitvec", "order", "Msb0"]),  // 13
        ]
        let info = try TypeInformation(
            metadata: Self.metadata(types, call: 8, address: 0, signature: 11, extensions: [("CheckX", 7, 4)]))
        #expect(info.metadataIds == [6, 8, 11])
        #expect(
            info.leaves == [
                TypeLeaf(
                    path: ["pallet", "Args"],
                    definition: .composite([
                        LeafField(name: "a", type: .compactU32, typeName: "u32"),
                        LeafField(name: "b", type: .compactU32, typeName: nil),
                        LeafField(name: "c", type: .void, typeName: nil),
                        LeafField(name: "d", type: .void, typeName: nil),
                        LeafField(name: "e", type: .void, typeName: nil),
                    ]), typeId: 0),
                TypeLeaf(
                    path: ["RuntimeCall"], definition: .enumeration(LeafVariant(name: "a", fields: [], index: 1)),
                    typeId: 1),
                TypeLeaf(
                    path: ["RuntimeCall"],
                    definition: .enumeration(
                        LeafVariant(name: "b", fields: [LeafField(name: nil, type: .byId(0), typeName: nil)], index: 3)),
                    typeId: 1),
                TypeLeaf(path: [], definition: .bitSequence(numBytes: 1, leastSignificantBitFirst: false), typeId: 2),
            ])
        #expect(
            info.extrinsic
                == ExtrinsicLayout(
                    version: 4, addressType: .u32, callType: .byId(1), signatureType: .byId(2),
                    signedExtensions: [
                        .init(identifier: "CheckX", includedInExtrinsic: .void, includedInSignedData: .void)
                    ]))
        #expect(
            info.extrinsic.encoded == [4, 5, 22, 4, 22, 8, 4, 24] + Array("CheckX".utf8) + [21, 21])
    }

    @Test func sequencesArraysTuplesAndSharedReferences() throws {
        let types: [TypeInfo] = [
            Self.type(.primitive(.u8)),  // 0
            Self.type(.sequence(0)),  // 1: Vec<u8>
            Self.type(.array(length: 32, element: 0), path: []),  // 2: [u8; 32]
            Self.type(.tuple([1, 2, 0])),  // 3
            Self.type(.composite([Self.field("x", 3), Self.field("y", 3)]), path: ["S"]),  // 4
            Self.type(.primitive(.bool)),  // 5
        ]
        let info = try TypeInformation(metadata: Self.metadata(types, call: 4, address: 5, signature: 2))
        #expect(info.metadataIds == [1, 2, 3, 4])
        #expect(
            info.leaves.map(\.definition) == [
                .sequence(.u8), .array(length: 32, element: .u8), .tuple([.byId(0), .byId(1), .u8]),
                .composite([
                    LeafField(name: "x", type: .byId(2), typeName: nil),
                    LeafField(name: "y", type: .byId(2), typeName: nil),
                ]),
            ])
        #expect(info.extrinsic.addressType == .bool)
    }

    /// Of two variants with one index the later one counts (the reference's map keyed by index).
    @Test func variantsAreSortedByIndexAndTheLastOfADuplicateIndexCounts() throws {
        let types: [TypeInfo] = [
            Self.type(
                .variant([
                    TypeVariant(name: "z", fields: [], index: 9), TypeVariant(name: "first", fields: [], index: 2),
                    TypeVariant(name: "second", fields: [], index: 2), TypeVariant(name: "y", fields: [], index: 0),
                ]), path: ["E"]),
            Self.type(.primitive(.u8)),
        ]
        let info = try TypeInformation(metadata: Self.metadata(types, call: 0, address: 1, signature: 1))
        #expect(info.leaves.compactMap(\.variantIndex) == [0, 2, 9])
        let names = info.leaves.compactMap { leaf -> String? in
            if case .enumeration(let v) = leaf.definition { return v.name } else { return nil }
        }
        #expect(names == ["y", "second", "z"])
    }

    @Test func bitSequencesTakeTheStoreWidthAndTheOrderFromThePath() throws {
        for (store, width) in [(PrimitiveType.u8, UInt8(1)), (.u16, 2), (.u32, 4), (.u64, 8)] {
            for (order, lsb) in [("Lsb0", true), ("Msb0", false)] {
                let types: [TypeInfo] = [
                    Self.type(.bitSequence(store: 1, order: 2)), Self.type(.primitive(store)),
                    Self.type(.composite([]), path: ["bitvec", "order", order]),
                ]
                let info = try TypeInformation(metadata: Self.metadata(types, call: 0, address: 1, signature: 1))
                #expect(info.leaves.map(\.definition) == [.bitSequence(numBytes: width, leastSignificantBitFirst: lsb)])
            }
        }
    }

    static let refused: [(String, [TypeInfo], MetadataHashError.Code)] = [
        (
            "Compact<i32>", [type(.composite([field(nil, 1)])), type(.compact(2)), type(.primitive(.i32))],
            .unsupportedType
        ),
        (
            "Compact over two primitives",
            [
                type(.composite([field(nil, 1)])), type(.compact(2)), type(.tuple([3, 4])), type(.primitive(.u8)),
                type(.primitive(.u16)),
            ], .unsupportedType
        ),
        (
            "bit order neither Lsb0 nor Msb0",
            [
                type(.bitSequence(store: 1, order: 2)), type(.primitive(.u8)),
                type(.composite([]), path: ["bitvec", "order", "Other"]),
            ], .unsupportedType
        ),
        (
            "bit store u128",
            [
                type(.bitSequence(store: 1, order: 2)), type(.primitive(.u128)),
                type(.composite([]), path: ["Lsb0"]),
            ], .unsupportedType
        ),
        ("unknown field type", [type(.composite([field(nil, 77)])), type(.primitive(.u8))], .unknownType),
        ("unknown compact inner type", [type(.composite([field(nil, 1)])), type(.compact(99))], .unknownType),
    ]

    @Test(arguments: 0..<refused.count)
    func typesTheRFCCannotExpressAreRefused(index: Int) throws {
        let (name, types, code) = Self.refused[index]
        let metadata = try Self.metadata(types, call: 0, address: 0, signature: 0)
        #expect(throws: MetadataHashError(code, ""), "\(name)") { try TypeInformation(metadata: metadata) }
    }

    @Test func anUnknownExtrinsicTypeIsRefused() throws {
        let metadata = try Self.metadata([Self.type(.primitive(.u8))], call: 0, address: 0, signature: 5)
        #expect(throws: MetadataHashError(.unknownType, "")) { try TypeInformation(metadata: metadata) }
    }

    /// Untrusted metadata can nest deeply; every walk is iterative, so a 100 000-deep chain of
    /// wrappers converts without exhausting the stack.
    @Test func deepNestingDoesNotRecurse() throws {
        let depth = 100_000
        var types = (0..<UInt32(depth)).map { i in Self.type(.composite([Self.field(nil, i + 1)])) }
        types.append(Self.type(.primitive(.u8)))
        types.append(Self.type(.compact(0)))  // Compact over the whole chain: one primitive at the end
        types.append(Self.type(.composite([Self.field(nil, UInt32(depth + 1))])))
        let info = try TypeInformation(
            metadata: Self.metadata(types, call: 0, address: UInt32(depth + 2), signature: UInt32(depth)))
        #expect(info.leaves.count == depth + 1)
        #expect(info.leaves.last?.definition == .composite([LeafField(name: nil, type: .compactU8, typeName: nil)]))
    }
}
