import ArgumentParser
import Foundation
import PolkadotCodec
import Primitives
import ScaleCodec
import SignerCore

/// `sigil call decode --metadata FILE 0xCALL [--json]`: a call in words, decoded through the
/// chain's metadata (accounts in the chain's SS58 format, amounts in its token when known).
struct CallDecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode call bytes (pallet index, call index, arguments) with runtime metadata.")

    @Option(help: "Runtime metadata of the chain (.scale, hex text, or MetadataDef JSON).")
    var metadata: String

    @Argument(help: "The call as 0x hex.")
    var call: String

    @Flag(help: "Print {\"pallet\", \"call\", \"args\"} as JSON.")
    var json = false

    @Flag(help: .hidden)
    var timing = false

    func run() throws {
        let contents = try InputFile.read(metadata, limit: MetadataSource.maxBytes)
        let clock = ContinuousClock()
        let start = clock.now
        let source = try MetadataSource(contents: contents)
        if timing {
            let ms = (clock.now - start) / .milliseconds(1)
            FileHandle.standardError.write(Data("metadata decode: \(contents.count) bytes in \(ms) ms\n".utf8))
        }
        let bytes: [UInt8]
        do { bytes = try Hex.decode(call, prefix: .required) } catch {
            throw ValidationError("the call must be 0x-prefixed hex")
        }
        let decoded = try ValueDecoder(metadata: source.metadata).decodeCall(bytes)
        let props = ChainProperties.resolve(
            genesisHash: source.genesisHash, provided: source.properties, metadata: source.metadata)
        let renderer = props.renderer
        print(json ? renderer.json(decoded).serialized(.pretty) : renderer.text(decoded))
    }
}
