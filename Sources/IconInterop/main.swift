// A JSON-lines filter for scripts/test.d/14-interop-bip32-icon.sh: one request per input line, one
// answer per output line, so that the Python side (bip-utils, iconsdk, coincurve) can check
// hundreds of derivations, transactions and signatures against one process. Test support only:
// it prints secrets it is given or derives (xprv), and is not part of the `sigil` product.
import Foundation
import IconCodec
import Primitives
import SigningKeys

func answer(_ line: String) -> JSONValue {
    do {
        let request = try JSONValue.parse(line)
        let op = request["op"]?.stringValue ?? ""
        func text(_ key: String) -> String { request[key]?.stringValue ?? "" }
        switch op {
        case "path":
            return ["ok": true, "canonical": .string(try BIP32Path(text("path")).description)]
        case "bip32":
            let key = try BIP32ExtendedKey(seed: Hex.decodeSecret(text("seed"), prefix: .forbidden))
                .derive(BIP32Path(text("path")))
            return [
                "ok": true, "xprv": .string(key.exposedExtendedPrivateKey()), "xpub": .string(key.extendedPublicKey),
            ]
        case "mnemonic":
            let mnemonic = try Mnemonic(phrase: text("phrase"))
            let seed = try mnemonic.bip39Seed(passphrase: text("passphrase"))
            let key = try BIP32ExtendedKey(seed: seed).derive(BIP32Path(text("path")))
            let icon = try IconKeyPair(
                mnemonic: mnemonic, passphrase: text("passphrase"), path: BIP32Path(text("path")))
            return [
                "ok": true, "seed": .string(Hex.encode(seed.unsafeExposedBytes(), prefix: false)),
                "xprv": .string(key.exposedExtendedPrivateKey()), "xpub": .string(key.extendedPublicKey),
                "secret": .string(Hex.encode(icon.secretKey.unsafeExposedBytes(), prefix: false)),
                "address": .string(icon.address),
            ]
        case "key":
            let key = try IconKeyPair(secretKey: Hex.decodeSecret(text("secret"), prefix: .forbidden))
            var out: JSONValue = [
                "ok": true, "address": .string(key.address),
                "publicXY": .string(Hex.encode(key.publicKeyXY, prefix: false)),
            ]
            if let hash = request["hash"]?.stringValue {
                out = out.adding("signature", .string(try key.signHashBase64(Hex.decode(hash, prefix: .forbidden))))
            }
            return out
        case "recover":
            let signature = try IconKeyPair.decodeSignature(base64: text("signature"))
            let address = try IconKeyPair.recoverAddress(
                signature: signature, hash: Hex.decode(text("hash"), prefix: .forbidden))
            return ["ok": true, "address": .string(address)]
        case "tx":
            let tx = try IconTransaction(jsonText: Array(text("txText").utf8))
            var out: JSONValue = [
                "ok": true, "serialized": .string(String(decoding: tx.serialized, as: UTF8.self)),
                "hash": .string(Hex.encode(tx.hash, prefix: false)),
            ]
            if let secret = request["secret"]?.stringValue {
                let key = try IconKeyPair(secretKey: Hex.decodeSecret(secret, prefix: .forbidden))
                let signature = try key.signHashBase64(tx.hash)
                out = out.adding("signature", .string(signature)).adding(
                    "signed", tx.signed(signatureBase64: signature))
            }
            return out
        default:
            return ["ok": false, "code": "unknownOp"]
        }
    } catch let error as IconCodecError {
        return ["ok": false, "code": .string(error.code.rawValue), "field": error.field.map { .string($0) } ?? nil]
    } catch let error as KeyError {
        return ["ok": false, "code": .string(error.code.description)]
    } catch {
        return ["ok": false, "code": "other", "reason": .string(String(describing: error))]
    }
}

while let line = readLine(strippingNewline: true) {
    // Unbuffered: one answer per request, the reader waits for it.
    FileHandle.standardOutput.write(Data((answer(line).serialized() + "\n").utf8))
}
