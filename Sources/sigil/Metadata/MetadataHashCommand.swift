import ArgumentParser
import Foundation
import MetadataHash
import PolkadotCodec
import Primitives
import ScaleCodec
import SignerCore

/// `sigil metadata hash FILE [--spec-version N] [--spec-name S] [--base58-prefix N] [--decimals N]
/// [--token-symbol S] [--json]`: the RFC-0078 metadata hash that `CheckMetadataHash` signs
/// (docs/reference/metadata-hash.md).
struct MetadataHashCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hash",
        abstract: "Compute the RFC-0078 metadata hash (CheckMetadataHash) of runtime metadata v15.",
        discussion: """
            FILE holds metadata v15 (.scale, 0x hex, or a polkadot-js MetadataDef JSON); - reads \
            standard input. Without --spec-version/--spec-name the metadata's System.Version constant \
            is used, without --base58-prefix its System.SS58Prefix; --decimals and --token-symbol \
            default to a MetadataDef's tokenDecimals/tokenSymbol and are required otherwise.
            """)

    @Argument(help: "Runtime metadata v15: a .scale file, hex text, or MetadataDef JSON; - for standard input.")
    var file: String

    @Option(help: "The runtime's spec version (default: System.Version in the metadata).")
    var specVersion: UInt32?

    @Option(help: "The runtime's spec name (default: System.Version in the metadata).")
    var specName: String?

    @Option(help: "The SS58 address prefix, 0…65535 (default: System.SS58Prefix in the metadata).")
    var base58Prefix: UInt16?

    @Option(help: "Decimals of the native token, 0…255.")
    var decimals: UInt8?

    @Option(help: "Symbol of the native token.")
    var tokenSymbol: String?

    @Flag(help: "Print the hash, both roots and the extra information as JSON.")
    var json = false

    func run() throws {
        let source = try MetadataSource(contents: InputFile.read(file, limit: MetadataSource.maxBytes))
        let metadata = source.metadata
        let version = metadata.runtimeVersion
        guard let specVersion = specVersion ?? version?.specVersion else {
            throw ValidationError("--spec-version is needed: the metadata has no System.Version constant")
        }
        guard let specName = specName ?? version?.specName else {
            throw ValidationError("--spec-name is needed: the metadata has no System.Version constant")
        }
        guard let base58Prefix = base58Prefix ?? metadata.ss58Prefix else {
            throw ValidationError("--base58-prefix is needed: the metadata has no System.SS58Prefix constant")
        }
        let token = source.properties?.token
        guard let decimals = decimals ?? token.flatMap({ UInt8(exactly: $0.decimals) }) else {
            throw ValidationError("--decimals is needed (token decimals are not in runtime metadata)")
        }
        guard let tokenSymbol = tokenSymbol ?? token?.symbol else {
            throw ValidationError("--token-symbol is needed (the token symbol is not in runtime metadata)")
        }
        let extra = ExtraInfo(
            specVersion: specVersion, specName: specName, base58Prefix: base58Prefix, decimals: decimals,
            tokenSymbol: tokenSymbol)
        let digest: MetadataDigest
        do { digest = try MetadataDigest(metadata: metadata, extra: extra) } catch let error as MetadataHashError {
            throw CLIFailure("\(error.code): \(error.reason)")
        }
        let hash = Hex.encode(digest.hash)
        if json {
            let out: JSONValue = [
                "metadataHash": .string(hash),
                "typesTreeRoot": .string(Hex.encode(digest.roots.typesTreeRoot)),
                "extrinsicMetadataHash": .string(Hex.encode(digest.roots.extrinsicMetadataHash)),
                "leaves": .number(JSONNumber(digest.roots.leafCount)),
                "specVersion": .number(JSONNumber(extra.specVersion)),
                "specName": .string(extra.specName),
                "base58Prefix": .number(JSONNumber(extra.base58Prefix)),
                "decimals": .number(JSONNumber(extra.decimals)),
                "tokenSymbol": .string(extra.tokenSymbol),
            ]
            print(out.serialized(.pretty))
            return
        }
        print("metadata hash:           \(hash)")
        print(
            "types tree root:         \(Hex.encode(digest.roots.typesTreeRoot)) (\(digest.roots.leafCount) leaves)"
        )
        print("extrinsic metadata hash: \(Hex.encode(digest.roots.extrinsicMetadataHash))")
        print(
            "extra information:       spec \(ValueRenderer.safeName(extra.specName)) \(extra.specVersion), "
                + "base58 prefix \(extra.base58Prefix), \(extra.decimals) decimals, "
                + "symbol \(ValueRenderer.safeName(extra.tokenSymbol))")
    }
}
