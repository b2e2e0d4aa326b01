import Foundation
import Keystore
import Primitives
import SigningKeys

/// A signed statement "the journal's head is entry `seq` with hash `head`, at `time`": ed25519 with
/// the journal key over ``JournalCodec/checkpointBytes(number:seq:head:time:key:)``.
///
/// Kept in the database and, with `--journal-mirror`, appended to a file elsewhere. A person who
/// holds a checkpoint can later detect a journal cut, deleted or rolled back below it.
package struct JournalCheckpoint: Sendable, Equatable {
    /// 1, 2, 3, … in the order they were made.
    package var number: UInt64
    /// The head entry's sequence number.
    package var seq: UInt64
    /// The head entry's hash.
    package var head: [UInt8]
    /// When it was made, milliseconds since 1970.
    package var time: Int64
    /// The ed25519 public key that signed it.
    package var key: [UInt8]
    /// The 64-byte ed25519 signature.
    package var signature: [UInt8]

    package init(number: UInt64, seq: UInt64, head: [UInt8], time: Int64, key: [UInt8], signature: [UInt8]) {
        self.number = number
        self.seq = seq
        self.head = head
        self.time = time
        self.key = key
        self.signature = signature
    }

    /// The bytes the signature covers.
    package var signedBytes: [UInt8] {
        JournalCodec.checkpointBytes(number: number, seq: seq, head: head, time: time, key: key)
    }

    /// Signs a new checkpoint with `key`.
    package static func make(number: UInt64, seq: UInt64, head: [UInt8], time: Int64, key: JournalKey)
        throws(JournalError) -> JournalCheckpoint
    {
        let bytes = JournalCodec.checkpointBytes(number: number, seq: seq, head: head, time: time, key: key.publicKey)
        return JournalCheckpoint(
            number: number, seq: seq, head: head, time: time, key: key.publicKey, signature: try key.sign(bytes))
    }

    /// Whether the signature verifies with the checkpoint's own key.
    package var signatureIsValid: Bool {
        Ed25519KeyPair.verify(signature: signature, message: signedBytes, publicKey: key)
    }

    /// The JSON object of the export and the mirror file (docs/journal.md §5).
    package var json: JSONValue {
        [
            "type": "checkpoint", "v": .integer(JournalCodec.version), "number": .integer(number),
            "seq": .integer(seq), "head": .string(Hex.encode(head)), "time": .integer(time),
            "key": .string(Hex.encode(key)), "signature": .string(Hex.encode(signature)),
        ]
    }

    /// Reads ``json``'s object back.
    /// - Throws: `.malformedFile` naming the field.
    package init(json: JSONValue) throws(JournalError) {
        func field<T: FixedWidthInteger>(_ name: String, _: T.Type) throws(JournalError) -> T {
            guard let value = json[name]?.integer(as: T.self) else {
                throw JournalError(.malformedFile, "checkpoint: field \(name)")
            }
            return value
        }
        func bytes(_ name: String, _ count: Int) throws(JournalError) -> [UInt8] {
            guard let text = json[name]?.stringValue,
                let value = try? Hex.decode(text, prefix: .required, byteCount: count)
            else { throw JournalError(.malformedFile, "checkpoint: field \(name)") }
            return value
        }
        guard json["type"]?.stringValue == "checkpoint" else {
            throw JournalError(.malformedFile, "checkpoint: type is not \"checkpoint\"")
        }
        guard try field("v", UInt8.self) == JournalCodec.version else {
            throw JournalError(.unsupportedFormat, "checkpoint: version is not \(JournalCodec.version)")
        }
        self.init(
            number: try field("number", UInt64.self), seq: try field("seq", UInt64.self), head: try bytes("head", 32),
            time: try field("time", Int64.self), key: try bytes("key", 32), signature: try bytes("signature", 64))
    }
}

/// The journal's ed25519 checkpoint key. Its file, `journal-key.json` in the data directory, is a
/// polkadot-js keyring JSON v3 file (ed25519, scrypt + XSalsa20-Poly1305) encrypted with the
/// password that unlocks the accounts; it is not an account (it lives outside `accounts/`).
package struct JournalKey: Sendable {
    private let pair: Ed25519KeyPair
    /// The public key checkpoints name.
    package var publicKey: [UInt8] { pair.publicKey }

    /// A key from a pair (tests; `--dev` without a data directory uses a fresh random one).
    package init(pair: Ed25519KeyPair) { self.pair = pair }

    /// A fresh random key.
    package static func random() throws(JournalError) -> JournalKey {
        do {
            return JournalKey(pair: try Ed25519KeyPair(seed: SecretBytes.random(count: 32)))
        } catch {
            throw JournalError(.invalidInput, "cannot create an ed25519 key")
        }
    }

    func sign(_ message: [UInt8]) throws(JournalError) -> [UInt8] {
        do {
            return try pair.sign(message)
        } catch {
            throw JournalError(.invalidInput, "cannot sign a checkpoint")
        }
    }

    /// The key file's name in the data directory.
    package static let fileName = "journal-key.json"

    /// The public key written in the file at `path` (no password needed), or nil when there is no file.
    /// - Throws: `.malformedFile` for a file that is not an ed25519 keyring file.
    package static func publicKey(inFileAt path: String) throws(JournalError) -> [UInt8]? {
        guard try keystoreFiles({ () throws(KeystoreError) in try POSIX.status(path) }) != nil else { return nil }
        let file = try keystoreFiles { () throws(KeystoreError) in
            try KeyringJSON.parse(Data(try POSIX.readFile(path, limit: 64 * 1024)))
        }
        guard try keystoreFiles({ () throws(KeystoreError) in try KeyringPairCodec.scheme(forKeyType: file.keyType) })
            == .ed25519
        else {
            throw JournalError(.malformedFile, "\(fileName) does not hold an ed25519 key")
        }
        return try keystoreFiles { () throws(KeystoreError) in
            try KeyringPairCodec.publicKey(fromAddress: file.address, scheme: .ed25519)
        }
    }

    /// Opens the key file at `path` with `password`, or creates it (0600, atomically) when absent.
    /// - Returns: the key and whether it was just created.
    /// - Throws: `.decryptFailed` when the file does not open with this password, `.malformedFile`,
    ///   `.passwordRequired` for an empty password, `.fileSystem`.
    package static func openOrCreate(
        at path: String, password: Passphrase, scryptParameters: ScryptParameters = .interoperable
    ) throws(JournalError) -> (key: JournalKey, created: Bool) {
        if try keystoreFiles({ () throws(KeystoreError) in try POSIX.status(path) }) != nil {
            let pair = try keystoreFiles { () throws(KeystoreError) in
                let file = try KeyringJSON.parse(Data(try POSIX.readFile(path, limit: 64 * 1024)))
                return try AccountStore.decryptPair(file, password: password)
            }
            guard case .ed25519(let pair) = pair else {
                throw JournalError(.malformedFile, "\(fileName) does not hold an ed25519 key")
            }
            return (JournalKey(pair: pair), false)
        }
        guard !password.isEmpty else {
            throw JournalError(.passwordRequired, "the journal key is encrypted with a password; none was given")
        }
        let key = try random()
        try keystoreFiles { () throws(KeystoreError) in
            let file = try AccountStore.encryptedFile(
                for: .ed25519(key.pair), password: password, parameters: scryptParameters,
                meta: ["name": "Sigil journal key", "sigilJournalKey": true])
            try AtomicFile.write([UInt8](try file.serialized()), to: path)
        }
        return (key, true)
    }
}
