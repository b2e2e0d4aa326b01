// swift-tools-version: 6.1
// Sigil: a local HTTP signing gateway for Polkadot dapps. Module layout and dependency rules:
// README.md "Architecture". Dependencies point down only:
//   sigil → (Gateway, SigilConfiguration); Gateway → (GatewayHTTP, SignerCore)
//   SignerCore → (StateStore → Journal → Keystore → SigningKeys, MetadataHash → (ScaleCodec, SigningKeys' BLAKE3),
//                 PolkadotCodec)
//   PolkadotCodec (SignerPayloadJSON, the signing payload, signed extensions, metadata input) →
//     (Primitives, ScaleCodec, SigningKeys' SS58 and BLAKE2b)
//   StateStore (state.sqlite through GRDB), Journal (the signing journal's format and verification),
//   Keystore (key files and the data directory; no database)
//   IconCodec (ICON v3 transactions) → (Primitives, SigningKeys' SHA3-256)
//   ICPCodec (Internet Computer requests, principals, Candid) → (Primitives, SigningKeys)
//   EthereumCodec (RLP, transactions, EIP-191/712, ABI display, SIWE) → (Primitives, SigningKeys' Keccak/secp256k1)
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Sigil",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "sigil", targets: ["sigil"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // C libraries from the system, found through pkg-config (scripts/setup installs the -dev packages).
        .systemLibrary(
            name: "CSodium", path: "Sources/CSodium", pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]),
        .systemLibrary(
            name: "CSecp256k1", path: "Sources/CSecp256k1", pkgConfig: "libsecp256k1",
            providers: [.apt(["libsecp256k1-dev"]), .brew(["secp256k1"])]),
        .systemLibrary(
            name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        .systemLibrary(
            name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        // Linux epoll from glibc's <sys/epoll.h> (not exported by the Glibc module).
        .systemLibrary(name: "CEpoll", path: "Sources/CEpoll"),

        // Our modules, bottom to top.
        // The primitives that must exist once: lossless JSON, hex, SecretBytes, libsodium initialisation.
        .target(
            name: "Primitives",
            dependencies: ["CSodium"],
            exclude: ["README.md"],
            swiftSettings: swiftSettings),
        .target(
            name: "GatewayHTTP",
            dependencies: ["Primitives", "CEpoll", "CZlib", "COpenSSL", .product(name: "Logging", package: "swift-log")],
            exclude: ["README.md"],
            swiftSettings: swiftSettings),
        .target(
            name: "ScaleCodec",
            dependencies: ["Primitives"],
            exclude: ["README.md"],
            swiftSettings: swiftSettings),
        .target(
            name: "SigningKeys",
            dependencies: ["Primitives", "CSodium", "CSecp256k1", "COpenSSL"],
            exclude: ["README.md"],
            swiftSettings: swiftSettings),
        // RFC-0078 metadata hash: ScaleCodec's metadata types in, SigningKeys' BLAKE3 for hashing.
        // Used by SignerCore (checking and adding CheckMetadataHash) and the command line.
        .target(
            name: "MetadataHash",
            dependencies: ["Primitives", "ScaleCodec", "SigningKeys"],
            exclude: ["README.md"],
            swiftSettings: swiftSettings),
        // Polkadot (Substrate) signing payloads: the SignerPayloadJSON parse, the signing payload and its
        // signed extensions, the signed transaction, metadata input (docs/reference/polkadot-extension.md §2).
        .target(
            name: "PolkadotCodec",
            dependencies: ["Primitives", "ScaleCodec", "SigningKeys"],
            exclude: ["README.md"],
            swiftSettings: swiftSettings),
        // ICON v3 transactions: validation, canonical serialization, SHA3-256 hash (docs/reference/icon.md).
        .target(
            name: "IconCodec",
            dependencies: ["Primitives", "SigningKeys"],
            exclude: ["README.md"],
            swiftSettings: swiftSettings),
        // Internet Computer: CBOR, request ids, principals, envelopes, bounded Candid (docs/reference/icp.md).
        .target(
            name: "ICPCodec",
            dependencies: ["Primitives", "SigningKeys"],
            exclude: ["README.md"],
            swiftSettings: swiftSettings),
        // Ethereum: RLP, the three transaction types, EIP-191, EIP-712, ABI for display, EIP-55, SIWE
        // (docs/reference/ethereum.md).
        .target(
            name: "EthereumCodec",
            dependencies: ["Primitives", "SigningKeys"],
            exclude: ["README.md"],
            swiftSettings: swiftSettings),
        // Key files (polkadot-js keyring JSON, ICON and Ethereum keystore files, ICP identities) and
        // the data directory (paths, locks, atomic writes). Knows no database.
        .target(
            name: "Keystore",
            dependencies: [
                "Primitives", "SigningKeys", "CSodium",
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["README.md"],
            swiftSettings: swiftSettings),
        // The signing journal: entries, their hash chain and signed checkpoints, verification, the
        // mirror file, the group-commit writer, and the `SigningJournal` protocol (docs/journal.md).
        // Stores nothing itself: the state store keeps the entries, the keystore the checkpoint key.
        .target(
            name: "Journal",
            dependencies: ["Primitives", "SigningKeys", "CSodium", "Keystore"],
            exclude: ["README.md"],
            swiftSettings: swiftSettings),
        // The state database (state.sqlite through GRDB): sites, metadata, settings, the journal's
        // table, backup and restore. Reached by the core through the `StateStore` and
        // `SigningJournal` protocols.
        .target(
            name: "StateStore",
            dependencies: [
                "Primitives", "SigningKeys", "Keystore", "Journal", "CSodium",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API for the journal's verification scan (sqlite3_column_*), GRDB's own copy.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["README.md"],
            swiftSettings: swiftSettings),
        .target(
            name: "SignerCore",
            dependencies: [
                "Primitives", "ScaleCodec", "SigningKeys", "Keystore", "Journal", "StateStore", "MetadataHash",
                "PolkadotCodec", "ICPCodec", "IconCodec",
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["README.md"],
            swiftSettings: swiftSettings),
        .target(
            name: "Gateway",
            dependencies: [
                "Primitives", "GatewayHTTP", "SignerCore", "Keystore", "Journal", "StateStore", "ScaleCodec",
                "PolkadotCodec", "ICPCodec", "IconCodec", "EthereumCodec",
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["README.md"],
            swiftSettings: swiftSettings),
        // `sigil serve` configuration: flags + SIGIL_* environment + TOML file (pure, unit-tested).
        .target(
            name: "SigilConfiguration",
            exclude: ["README.md"],
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "sigil",
            dependencies: [
                "Primitives", "GatewayHTTP", "ScaleCodec", "SigningKeys", "Keystore", "Journal", "StateStore", "SignerCore", "Gateway",
                "SigilConfiguration", "MetadataHash", "PolkadotCodec", "ICPCodec",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["README.md"],
            swiftSettings: swiftSettings),

        // Test support, not shipped: kills keystore writers at random points (scripts/test.d/21-keystore-crash.sh).
        .executableTarget(
            name: "KeystoreStress",
            dependencies: ["SigilTesting", "Primitives", "Keystore", "Journal", "StateStore", "SigningKeys", "CSodium"],
            exclude: ["README.md"],
            swiftSettings: swiftSettings),
        // Timing loops for scripts/bench-keys (synchronous, so that it runs under callgrind).
        .executableTarget(
            name: "KeysBench", dependencies: ["Primitives", "SigningKeys"],
            swiftSettings: swiftSettings),
        // The synchronous stages of one extrinsic.sign request, timed and counted under callgrind
        // (scripts/bench-path): what a request costs before HTTP, tasks and the actor are added.
        .executableTarget(
            name: "SigningPathBench",
            dependencies: [
                "Primitives", "ScaleCodec", "SigningKeys", "Keystore", "Journal", "StateStore", "SignerCore", "Gateway", "GatewayHTTP",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings),
        // Metadata-hash timings for scripts/bench-metadata-hash, and a BLAKE3 filter for
        // scripts/test.d/12-interop-blake3.sh.
        .executableTarget(
            name: "MetadataHashBench", dependencies: ["MetadataHash", "Primitives", "ScaleCodec", "SigningKeys"],
            swiftSettings: swiftSettings),

        // JSON-lines filter for scripts/test.d/14-interop-bip32-icon.sh (BIP32, ICON keys and transactions).
        .executableTarget(
            name: "IconInterop", dependencies: ["IconCodec", "Primitives", "SigningKeys"],
            exclude: ["README.md"],
            swiftSettings: swiftSettings),

        // JSON-lines filter for scripts/test.d/17-interop-icp.sh (principals, request ids, envelopes, Candid).
        .executableTarget(
            name: "ICPInterop", dependencies: ["ICPCodec", "Primitives", "SigningKeys"],
            exclude: ["README.md"],
            swiftSettings: swiftSettings),

        // JSON-lines filter for scripts/test.d/18-interop-ethereum.sh (keys, transactions, EIP-191/712, keystores).
        .executableTarget(
            name: "EthereumInterop",
            dependencies: ["EthereumCodec", "Keystore", "Primitives", "SignerCore", "SigningKeys", "StateStore"],
            exclude: ["README.md"],
            swiftSettings: swiftSettings),

        // The fuzz targets: every parser fed by a socket or a file, with its properties (Fuzz/README.md).
        // The Swift tests replay their seeds and kept crash inputs; libFuzzer drives them through SigilFuzz.
        .target(
            name: "FuzzTargets",
            dependencies: [
                "Primitives", "GatewayHTTP", "ScaleCodec", "SignerCore", "Keystore", "Journal", "StateStore", "SigilConfiguration", "IconCodec",
                "ICPCodec", "EthereumCodec", "Gateway", "SigningKeys", "PolkadotCodec",
            ],
            exclude: ["README.md"],
            swiftSettings: swiftSettings),

        // Test support built once (Tests/SigilTesting/README.md): the seeded generator and the
        // vectors several test targets read. Not shipped.
        .target(
            name: "SigilTesting", path: "Tests/SigilTesting",
            exclude: ["README.md"],
            resources: [.copy("Resources")],
            swiftSettings: swiftSettings),

        // Tests (Swift Testing). Vectors and fixtures are copied into each target's Resources (or
        // SigilTesting's, when several read them); nothing here reads the team's shared folder.
        .testTarget(
            name: "PrimitivesTests", dependencies: ["Primitives"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "GatewayHTTPTests", dependencies: ["SigilTesting", "Primitives", "GatewayHTTP", "COpenSSL"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "ScaleCodecTests", dependencies: ["SigilTesting", "Primitives", "ScaleCodec"],
            resources: [.copy("Resources")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "SigningKeysTests", dependencies: ["SigilTesting", "Primitives", "SigningKeys", "CSodium"],
            resources: [.copy("Resources")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "MetadataHashTests", dependencies: ["MetadataHash", "Primitives", "ScaleCodec", "SigningKeys"],
            resources: [.copy("Resources")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "PolkadotCodecTests",
            dependencies: ["SigilTesting", "PolkadotCodec", "Primitives", "ScaleCodec", "SigningKeys"],
            resources: [.copy("Resources")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "IconCodecTests", dependencies: ["IconCodec", "Primitives", "SigningKeys"],
            resources: [.copy("Resources")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "ICPCodecTests", dependencies: ["SigilTesting", "ICPCodec", "Primitives", "SigningKeys"],
            resources: [.copy("Resources")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "EthereumCodecTests", dependencies: ["EthereumCodec", "Keystore", "Primitives", "SigningKeys"],
            resources: [.copy("Resources")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "KeystoreTests",
            dependencies: [
                // StateStore: one test scans the whole data directory, state database included, for secrets.
                "SigilTesting", "Primitives", "Keystore", "SigningKeys", "StateStore",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            resources: [.copy("Resources")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "StateStoreTests",
            dependencies: [
                "SigilTesting", "Primitives", "Keystore", "Journal", "StateStore", "SigningKeys",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "SignerCoreTests",
            dependencies: ["SigilTesting", 
                "Primitives", "SignerCore", "ScaleCodec", "SigningKeys", "Keystore", "Journal", "StateStore", "MetadataHash", "ICPCodec", "IconCodec",
                "PolkadotCodec",
            ],
            resources: [.copy("Resources")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "GatewayTests",
            dependencies: ["SigilTesting", 
                "Primitives", "Gateway", "GatewayHTTP", "SignerCore", "Keystore", "Journal", "StateStore", "SigningKeys",
                "ScaleCodec", "ICPCodec", "IconCodec", "EthereumCodec", "MetadataHash", "PolkadotCodec",
            ],
            resources: [.copy("Resources")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "SigilConfigurationTests", dependencies: ["SigilConfiguration"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "FuzzTargetsTests", dependencies: ["FuzzTargets"],
            swiftSettings: swiftSettings),
    ]
)

// libFuzzer's driver (scripts/fuzz): only with SIGIL_FUZZ=1, built with `--sanitize fuzzer`, whose
// runtime supplies `main` (hence -parse-as-library; an ordinary build would have no entry point).
if Context.environment["SIGIL_FUZZ"] == "1" {
    package.targets.append(
        .executableTarget(
            name: "SigilFuzz", dependencies: ["FuzzTargets"],
            swiftSettings: swiftSettings + [.unsafeFlags(["-parse-as-library"])]))
}
