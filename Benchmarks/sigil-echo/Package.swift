// swift-tools-version: 6.1
// Benchmark-only: GatewayHTTP behind a tiny echo router, for scripts/bench-http. The GatewayHTTP,
// Primitives, CSodium, CEpoll, CZlib and COpenSSL source folders are symlinks to the main package's (the main package exports no library
// product), so this measures exactly the code Sigil ships. Built with --scratch-path .build-bench-sigil.
import PackageDescription

let package = Package(
    name: "sigil-echo",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2")
    ],
    targets: [
        .systemLibrary(name: "CSodium", path: "Sources/CSodium", pkgConfig: "libsodium"),
        .target(name: "Primitives", dependencies: ["CSodium"], path: "Sources/Primitives", exclude: ["README.md"]),
        .systemLibrary(name: "CEpoll", path: "Sources/CEpoll"),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib"),
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "openssl"),
        .target(
            name: "GatewayHTTP", dependencies: ["Primitives", "CEpoll", "CZlib", "COpenSSL", .product(name: "Logging", package: "swift-log")],
            path: "Sources/GatewayHTTP", exclude: ["README.md"]),
        .executableTarget(
            name: "sigil-echo", dependencies: ["GatewayHTTP", .product(name: "Logging", package: "swift-log")]),
    ]
)
