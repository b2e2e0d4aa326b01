import Foundation
import Primitives
import ScaleCodec

/// Runtime metadata and chain properties from what a user or dapp hands us: raw SCALE bytes
/// (a `.scale` file), `0x` hex text, or a polkadot-js `MetadataDef` JSON as sent in
/// `pub(metadata.provide)` (`rawMetadata` hex, or `metaCalls` base64; `chain`, `ss58Format`,
/// `tokenDecimals`, `tokenSymbol`).
///
/// Untrusted input: the size is capped (``maxBytes``) and everything is decoded strictly.
package struct MetadataSource: Sendable {
    /// The decoded metadata.
    package var metadata: RuntimeMetadata
    /// Properties the `MetadataDef` carried, if any.
    package var properties: ChainProperties?
    /// The genesis hash the `MetadataDef` named, if any.
    package var genesisHash: [UInt8]?

    /// Largest input accepted (current Polkadot metadata is about 0.5 MB).
    package static let maxBytes = 16 << 20

    /// Decodes metadata from file contents in any of the accepted forms.
    /// - Throws: `PolkadotCodecError.badMetadata` with the reason.
    package init(contents: [UInt8]) throws(PolkadotCodecError) {
        guard contents.count <= Self.maxBytes else {
            throw PolkadotCodecError(.badMetadata, "metadata input of \(contents.count) bytes exceeds \(Self.maxBytes)")
        }
        if contents.starts(with: RuntimeMetadata.magic) {
            metadata = try Self.decode(contents)
            return
        }
        let text = String(decoding: contents, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("0x") {
            guard let bytes = try? Hex.decode(text, prefix: .required) else {
                throw PolkadotCodecError(.badMetadata, "metadata hex is not valid hex")
            }
            metadata = try Self.decode(bytes)
            return
        }
        guard let obj = (try? JSONValue.parse(Array(text.utf8)))?.objectValue else {
            throw PolkadotCodecError(.badMetadata, "not SCALE metadata, hex, or a MetadataDef JSON object")
        }
        if let raw = obj["rawMetadata"]?.stringValue {
            guard let bytes = try? Hex.decode(raw, prefix: .required) else {
                throw PolkadotCodecError(.badMetadata, "rawMetadata is not valid hex")
            }
            metadata = try Self.decode(bytes)
        } else if let calls = obj["metaCalls"]?.stringValue {
            guard let data = Data(base64Encoded: calls) else {
                throw PolkadotCodecError(.badMetadata, "metaCalls is not base64")
            }
            metadata = try Self.decode([UInt8](data))
        } else {
            throw PolkadotCodecError(.badMetadata, "MetadataDef has neither rawMetadata nor metaCalls")
        }
        var props = ChainProperties()
        props.name = obj["chain"]?.stringValue
        if let p = obj["ss58Format"]?.integer(as: UInt16.self), p <= 16383 { props.ss58Prefix = p }
        if let decimals = obj["tokenDecimals"]?.integer(as: Int.self), (0...38).contains(decimals),
            let symbol = obj["tokenSymbol"]?.stringValue,
            symbol.count <= 16
        {
            props.token = TokenFormat(decimals: decimals, symbol: symbol)
        }
        properties = props
        if let g = obj["genesisHash"]?.stringValue, let bytes = try? Hex.decode(g, prefix: .required, byteCount: 32) {
            genesisHash = bytes
        }
    }

    /// Metadata from `metadata.provide`'s `rawMetadata` (`0x` hex of the full metadata).
    package init(rawMetadata hex: String, properties: ChainProperties? = nil, genesisHash: [UInt8]? = nil)
        throws(PolkadotCodecError)
    {
        guard hex.utf8.count <= 2 * Self.maxBytes + 2, let bytes = try? Hex.decode(hex, prefix: .required) else {
            throw PolkadotCodecError(.badMetadata, "rawMetadata is not valid hex of at most \(Self.maxBytes) bytes")
        }
        metadata = try Self.decode(bytes)
        self.properties = properties
        self.genesisHash = genesisHash
    }

    /// Metadata from its SCALE bytes (as the state store keeps them).
    package init(bytes: [UInt8], properties: ChainProperties? = nil, genesisHash: [UInt8]? = nil)
        throws(PolkadotCodecError)
    {
        guard bytes.count <= Self.maxBytes else {
            throw PolkadotCodecError(.badMetadata, "metadata of \(bytes.count) bytes exceeds \(Self.maxBytes)")
        }
        metadata = try Self.decode(bytes)
        self.properties = properties
        self.genesisHash = genesisHash
    }

    /// Metadata from `metadata.provide`'s `metaCalls` (base64 of the calls-only metadata).
    package init(metaCalls base64: String, properties: ChainProperties? = nil, genesisHash: [UInt8]? = nil)
        throws(PolkadotCodecError)
    {
        guard base64.utf8.count <= 2 * Self.maxBytes, let data = Data(base64Encoded: base64) else {
            throw PolkadotCodecError(.badMetadata, "metaCalls is not valid base64 of at most \(Self.maxBytes) bytes")
        }
        metadata = try Self.decode([UInt8](data))
        self.properties = properties
        self.genesisHash = genesisHash
    }

    static func decode(_ bytes: [UInt8]) throws(PolkadotCodecError) -> RuntimeMetadata {
        do { return try RuntimeMetadata(bytes: bytes) } catch {
            throw PolkadotCodecError(.badMetadata, "runtime metadata does not decode: \(error)")
        }
    }
}
