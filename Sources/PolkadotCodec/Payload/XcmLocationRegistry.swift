import ScaleCodec

/// A tiny built-in type registry for XCM v4 `Location` (`staging_xcm::v4::Location`), used to
/// read `assetId` when no chain metadata is at hand. With metadata, the chain's own
/// `ChargeAssetTxPayment` type is used instead (``AssetIdResolver``).
///
/// Layout (polkadot-sdk `polkadot/xcm/src/v4/{location,junctions,junction}.rs`):
/// `Location { parents: u8, interior: Junctions }`, `Junctions::{Here, X1([Junction; 1]) … X8}`,
/// `Junction::{Parachain(Compact<u32>), AccountId32{network, id}, AccountIndex64{network, index},
/// AccountKey20{network, key}, PalletInstance(u8), GeneralIndex(Compact<u128>), GeneralKey{length,
/// data}, OnlyChild, Plurality{id, part}, GlobalConsensus(NetworkId)}`.
enum XcmLocationRegistry {
    static let location: UInt32 = 24
    static let optionLocation: UInt32 = 25

    static let registry: PortableRegistry = {
        func f(_ name: String?, _ t: UInt32, _ tn: String? = nil) -> TypeField {
            TypeField(name: name, type: t, typeName: tn)
        }
        func v(_ name: String, _ i: UInt8, _ fields: [TypeField] = []) -> TypeVariant {
            TypeVariant(name: name, fields: fields, index: i)
        }
        var types: [TypeInfo] = [
            TypeInfo(def: .primitive(.u8)),  // 0
            TypeInfo(def: .compact(2)),  // 1
            TypeInfo(def: .primitive(.u32)),  // 2
            TypeInfo(def: .compact(4)),  // 3
            TypeInfo(def: .primitive(.u64)),  // 4
            TypeInfo(def: .compact(6)),  // 5
            TypeInfo(def: .primitive(.u128)),  // 6
            TypeInfo(def: .array(length: 32, element: 0)),  // 7
            TypeInfo(def: .array(length: 20, element: 0)),  // 8
            TypeInfo(def: .array(length: 4, element: 0)),  // 9
            TypeInfo(
                path: ["staging_xcm", "v4", "junction", "NetworkId"],
                def: .variant([
                    v("ByGenesis", 0, [f(nil, 7)]), v("ByFork", 1, [f("block_number", 4), f("block_hash", 7)]),
                    v("Polkadot", 2), v("Kusama", 3), v("Westend", 4), v("Rococo", 5), v("Wococo", 6),
                    v("Ethereum", 7, [f("chain_id", 3)]), v("BitcoinCore", 8), v("BitcoinCash", 9),
                    v("PolkadotBulletin", 10),
                ])),  // 10
            TypeInfo(path: ["Option"], def: .variant([v("None", 0), v("Some", 1, [f(nil, 10)])])),  // 11
            TypeInfo(
                path: ["xcm", "v3", "junction", "BodyId"],
                def: .variant([
                    v("Unit", 0), v("Moniker", 1, [f(nil, 9)]), v("Index", 2, [f(nil, 1)]), v("Executive", 3),
                    v("Technical", 4), v("Legislative", 5), v("Judicial", 6), v("Defense", 7),
                    v("Administration", 8), v("Treasury", 9),
                ])),  // 12
            TypeInfo(
                path: ["xcm", "v3", "junction", "BodyPart"],
                def: .variant([
                    v("Voice", 0), v("Members", 1, [f("count", 1)]), v("Fraction", 2, [f("nom", 1), f("denom", 1)]),
                    v("AtLeastProportion", 3, [f("nom", 1), f("denom", 1)]),
                    v("MoreThanProportion", 4, [f("nom", 1), f("denom", 1)]),
                ])),  // 13
            TypeInfo(
                path: ["staging_xcm", "v4", "junction", "Junction"],
                def: .variant([
                    v("Parachain", 0, [f(nil, 1)]), v("AccountId32", 1, [f("network", 11), f("id", 7)]),
                    v("AccountIndex64", 2, [f("network", 11), f("index", 3)]),
                    v("AccountKey20", 3, [f("network", 11), f("key", 8)]), v("PalletInstance", 4, [f(nil, 0)]),
                    v("GeneralIndex", 5, [f(nil, 5)]), v("GeneralKey", 6, [f("length", 0), f("data", 7)]),
                    v("OnlyChild", 7), v("Plurality", 8, [f("id", 12), f("part", 13)]),
                    v("GlobalConsensus", 9, [f(nil, 10)]),
                ])),  // 14
            TypeInfo(
                path: ["staging_xcm", "v4", "junctions", "Junctions"],
                def: .variant(
                    [v("Here", 0)] + (1...8).map { n in v("X\(n)", UInt8(n), [f(nil, UInt32(15 + n))]) })),  // 15
        ]
        for n in 1...8 { types.append(TypeInfo(def: .array(length: UInt32(n), element: 14))) }  // 16…23
        types.append(
            TypeInfo(
                path: ["staging_xcm", "v4", "location", "Location"],
                def: .composite([f("parents", 0, "u8"), f("interior", 15, "Junctions")])))  // 24
        types.append(TypeInfo(path: ["Option"], def: .variant([v("None", 0), v("Some", 1, [f(nil, 24)])])))  // 25
        return PortableRegistry(types: types.enumerated().map { PortableType(id: UInt32($0), type: $1) })
    }()
}
