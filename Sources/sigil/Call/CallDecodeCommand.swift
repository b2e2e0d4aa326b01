import ArgumentParser
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

    func run() throws {
        let source = try MetadataSource(contents: InputFile.read(metadata, limit: MetadataSource.maxBytes))
        let bytes: [UInt8]
        do { bytes = try HexCoding.decode(call) } catch { throw ValidationError("the call must be 0x-prefixed hex") }
        let decoded = try ValueDecoder(metadata: source.metadata).decodeCall(bytes)
        let props = ChainProperties.resolve(
            genesisHash: source.genesisHash, provided: source.properties, metadata: source.metadata)
        let renderer = props.renderer
        print(json ? renderer.json(decoded).pretty : renderer.text(decoded))
    }
}
