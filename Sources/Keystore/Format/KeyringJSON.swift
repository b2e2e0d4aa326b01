import Foundation
import Primitives

/// One polkadot-js keyring JSON file, version 3 (`keyring/src/pair/toJson.ts`; docs/reference/crypto.md §7.1):
///
/// ```json
/// { "encoded": "<base64>",
///   "encoding": { "content": ["pkcs8", "sr25519"], "type": ["scrypt", "xsalsa20-poly1305"], "version": "3" },
///   "address": "<SS58, or 0x-hex compressed public key for ecdsa>",
///   "meta": { "name": "…", "genesisHash": "0x…", "whenCreated": 1718265838755, "isHidden": false } }
/// ```
///
/// This type is the file's shape only; it decrypts nothing. Parsing is strict about what it needs and
/// keeps unknown `meta` keys. Untrusted input: `parse` bounds the size and reports the failing field.
package struct KeyringJSON: Sendable, Hashable {
    /// Maximum size of one file accepted by `parse` (a real one is under 1 KiB; batches are larger).
    package static let maxFileBytes = 16 << 20

    /// The encrypted (or plain, for `type: ["none"]`) key blob, base64 or, in old files, 0x-hex.
    package var encoded: String
    /// `encoding.content`, e.g. `["pkcs8", "sr25519"]` or `["batch-pkcs8"]`; nil when absent.
    package var content: [String]?
    /// `encoding.type`, e.g. `["scrypt", "xsalsa20-poly1305"]` or `["none"]`.
    package var type: [String]
    /// `encoding.version`, `"3"` for everything written since 2020.
    package var version: String
    /// The account address as written (SS58, or 0x-hex for ecdsa/ethereum). Empty for batches.
    package var address: String
    /// The `meta` object, unknown keys included.
    package var meta: JSONObject
    /// For batch exports (`batch-pkcs8`): the unencrypted `accounts: [{address, meta}]` list.
    package var batchAccounts: [JSONValue]?

    /// Creates a file value.
    package init(
        encoded: String, content: [String]?, type: [String], version: String = "3", address: String,
        meta: JSONObject, batchAccounts: [JSONValue]? = nil
    ) {
        self.encoded = encoded
        self.content = content
        self.type = type
        self.version = version
        self.address = address
        self.meta = meta
        self.batchAccounts = batchAccounts
    }

    /// `encoding.type` says the blob is encrypted (anything but `["none"]`).
    package var isEncrypted: Bool { !(type.isEmpty || type == ["none"]) }
    /// `encoding.type` contains `"scrypt"` (version 3); otherwise an encrypted file uses the padded password.
    package var usesScrypt: Bool { type.contains("scrypt") }
    /// `content[0] == "batch-pkcs8"`: a multi-account export from polkadot-js, Talisman or SubWallet.
    package var isBatch: Bool { content?.first == "batch-pkcs8" }
    /// `content[1]`: `sr25519`, `ed25519`, `ecdsa` or `ethereum`; nil when absent.
    package var keyType: String? {
        guard let content, content.count >= 2 else { return nil }
        return content[1]
    }

    /// Parses a file. Accepts `encoding.type` as a string or an array, as polkadot-js does.
    /// - Throws: `.malformedFile` naming the field, `.unsupportedFormat` for an unknown version or content.
    package static func parse(_ data: Data) throws(KeystoreError) -> KeyringJSON {
        guard data.count <= maxFileBytes else {
            throw KeystoreError(.malformedFile, "file is \(data.count) bytes, over the \(maxFileBytes)-byte limit")
        }
        let root: JSONValue
        do {
            root = try JSONValue.parse(data, limits: JSONLimits(maxDepth: 64, maxBytes: maxFileBytes))
        } catch {
            throw KeystoreError(.malformedFile, at: error.offset, "not JSON (\(error.code): \(error.reason))")
        }
        return try parse(root)
    }

    /// Parses an already decoded JSON value (a batch's entries).
    static func parse(_ root: JSONValue) throws(KeystoreError) -> KeyringJSON {
        guard let object = root.objectValue else {
            throw KeystoreError(.malformedFile, "top level is not a JSON object")
        }
        guard let encoded = object["encoded"]?.stringValue else {
            throw KeystoreError(.malformedFile, "field \"encoded\" is missing or not a string")
        }
        guard let encoding = object["encoding"]?.objectValue else {
            throw KeystoreError(.malformedFile, "field \"encoding\" is missing or not an object")
        }
        let type: [String]
        switch encoding["type"] {
        case .string(let s): type = [s]
        case .array(let a):
            type = try a.map { (v) throws(KeystoreError) -> String in
                guard let s = v.stringValue else {
                    throw KeystoreError(.malformedFile, "encoding.type has a non-string")
                }
                return s
            }
        default: throw KeystoreError(.malformedFile, "field \"encoding.type\" is missing")
        }
        let version: String
        switch encoding["version"] {
        case .string(let s): version = s
        case .number(let n) where n.isInteger: version = n.text
        case nil, .null: version = "0"
        default: throw KeystoreError(.malformedFile, "field \"encoding.version\" is not a string")
        }
        guard version == "0" || version == "2" || version == "3" else {
            throw KeystoreError(.unsupportedFormat, "encoding.version \"\(version.prefix(8))\" is not supported")
        }
        var content: [String]?
        if let a = encoding["content"]?.arrayValue {
            content = try a.map { (v) throws(KeystoreError) -> String in
                guard let s = v.stringValue else {
                    throw KeystoreError(.malformedFile, "encoding.content has a non-string")
                }
                return s
            }
        }
        let address: String
        switch object["address"] {
        case .string(let s): address = s
        case nil, .null: address = ""
        default: throw KeystoreError(.malformedFile, "field \"address\" is not a string")
        }
        var meta: JSONObject = [:]
        switch object["meta"] {
        case .object(let m): meta = m
        case nil, .null: break
        default: throw KeystoreError(.malformedFile, "field \"meta\" is not an object")
        }
        var batchAccounts: [JSONValue]?
        if let accounts = object["accounts"] {
            guard let list = accounts.arrayValue else {
                throw KeystoreError(.malformedFile, "field \"accounts\" is not an array")
            }
            batchAccounts = list
        }
        let file = KeyringJSON(
            encoded: encoded, content: content, type: type, version: version, address: address, meta: meta,
            batchAccounts: batchAccounts)
        // keyring.ts createFromJson: version 3 requires content[0] == "pkcs8" (or our batch marker).
        if version == "3", let first = content?.first, first != "pkcs8", first != "batch-pkcs8" {
            throw KeystoreError(.unsupportedFormat, "encoding.content[0] \"\(first.prefix(16))\" is not pkcs8")
        }
        return file
    }

    /// The decoded bytes of `encoded`: 0x-hex when it looks like hex (`isHex`), base64 otherwise.
    /// - Throws: `.malformedFile`.
    package func encodedBytes() throws(KeystoreError) -> [UInt8] {
        if let bytes = try? Hex.decode(encoded, prefix: .required) {
            return bytes
        }
        guard let data = Data(base64Encoded: encoded) else {
            throw KeystoreError(.malformedFile, "field \"encoded\" is neither base64 nor 0x-hex")
        }
        return [UInt8](data)
    }

    /// The JSON object as polkadot-js writes it (`batchAccounts` added for batches).
    package var jsonValue: JSONValue {
        var encoding: [String: JSONValue] = [
            "type": .array(type.map { .string($0) }),
            "version": .string(version),
        ]
        if let content { encoding["content"] = .array(content.map { .string($0) }) }
        var root: [String: JSONValue] = [
            "encoded": .string(encoded),
            "encoding": .object(encoding),
        ]
        if let batchAccounts {
            root["accounts"] = .array(batchAccounts)  // batches have no address or meta of their own
        } else {
            root["address"] = .string(address)
            root["meta"] = .object(meta)
        }
        return .object(root)
    }

    /// Serialises the file: pretty-printed, keys sorted, slashes unescaped, trailing newline.
    package func serialized() throws(KeystoreError) -> Data {
        var bytes = jsonValue.encoded([.pretty, .sortedKeys])
        bytes.append(0x0a)
        return Data(bytes)
    }
}
