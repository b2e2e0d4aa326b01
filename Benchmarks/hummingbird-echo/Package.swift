// swift-tools-version: 6.1
// Benchmark-only: the Hummingbird 2 server that scripts/bench-http compares GatewayHTTP with.
// Not a dependency of Sigil; built on its own with --scratch-path .build-bench-hb.
import PackageDescription

let package = Package(
    name: "hummingbird-echo",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1")
    ],
    targets: [
        .executableTarget(
            name: "hb-echo",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")])
    ]
)
