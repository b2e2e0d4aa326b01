import ArgumentParser
import Foundation
import PolkadotCodec
import Primitives
import ScaleCodec
import SignerCore

/// `sigil payload FILE|- [--metadata FILE] [--json]`: the exact bytes a `SignerPayloadJSON`
/// signs, and what it does in words.
struct PayloadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "payload",
        abstract: "Print the exact bytes a SignerPayloadJSON signs, and a summary a person can read.",
        discussion: """
            FILE holds the JSON a dapp sends in pub(extrinsic.sign) (signer.signPayload); - reads \
            standard input. With --metadata (a .scale file, 0x hex, or a polkadot-js MetadataDef JSON \
            with rawMetadata or metaCalls) the call is decoded and the extension list checked.
            """)

    @Argument(help: "The SignerPayloadJSON file, or - for standard input.")
    var file: String

    @Option(help: "Runtime metadata of the chain (.scale, hex text, or MetadataDef JSON).")
    var metadata: String?

    @Flag(help: "Print {\"payload\", \"hashed\", \"signed\", \"summary\"} as JSON.")
    var json = false

    func run() throws {
        let request = try InputFile.read(file, limit: 16 << 20)
        let source = try metadata.map {
            try MetadataSource(contents: InputFile.read($0, limit: MetadataSource.maxBytes))
        }
        let prepared = try PreparedPayload(json: request, metadata: source?.metadata, provided: source?.properties)
        let signing = prepared.signing
        let summary = prepared.summary
        if json {
            let out: JSONValue = [
                "payload": .string(Hex.encode(signing.bytes)),
                "hashed": .bool(signing.hashed),
                "signed": .string(Hex.encode(signing.signedBytes)),
                "summary": summary.json,
            ]
            print(out.serialized(.pretty))
            return
        }
        print("signing payload: \(Hex.encode(signing.bytes))")
        print(
            signing.hashed
                ? "hashed:          yes (\(signing.bytes.count) bytes > 256: the BLAKE2b-256 hash is signed)"
                : "hashed:          no (\(signing.bytes.count) bytes: signed as is)")
        print("signed bytes:    \(Hex.encode(signing.signedBytes))")
        print("")
        print(summary.text)
    }
}
