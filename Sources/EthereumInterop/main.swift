// A JSON-lines filter for scripts/test.d/18-interop-ethereum.sh: one request per input line, one
// answer per output line, so that the Python side (eth-account, eth-keyfile, rlp) can check
// hundreds of keys, transactions, messages, typed data and keystore files against one process.
// Test support only: it handles the throwaway secrets it is given, and is not part of `sigil`.
import EthereumCodec
import Foundation
import Keystore
import Primitives
import SignerCore
import SigningKeys
import StateStore

func failure(_ error: any Error) -> JSONValue {
    switch error {
    case let e as EthereumCodecError: ["ok": false, "code": .string(e.code.rawValue)]
    case let e as KeystoreError: ["ok": false, "code": .string("\(e.code)")]
    case let e as KeyError: ["ok": false, "code": .string("\(e.code)")]
    case let e as SignerError: ["ok": false, "code": .string("\(e.code)")]
    default: ["ok": false, "code": .string("\(type(of: error))")]
    }
}

func transactionJSON(_ tx: EthereumTransaction) -> JSONValue {
    var o: JSONObject = [
        "type": .integer(tx.type.rawValue), "nonce": .string("\(tx.nonce)"), "gas": .string("\(tx.gas)"),
        "to": tx.to.map { .string($0.lowercased) } ?? .null, "value": .string(tx.value.description),
        "data": .string(Hex.encode(tx.data)), "chainId": tx.chainId.map { .string("\($0)") } ?? .null,
    ]
    switch tx.type {
    case .legacy, .accessList: o["gasPrice"] = .string(tx.gasPrice.description)
    case .dynamicFee:
        o["maxFeePerGas"] = .string(tx.maxFeePerGas.description)
        o["maxPriorityFeePerGas"] = .string(tx.maxPriorityFeePerGas.description)
    }
    if tx.type != .legacy {
        o["accessList"] = .array(
            tx.accessList.map {
                [
                    "address": .string($0.address.lowercased),
                    "storageKeys": .array($0.storageKeys.map { .string(Hex.encode($0)) }),
                ]
            })
    }
    return .object(o)
}

func answer(_ line: String) -> JSONValue {
    do {
        let request = try JSONValue.parse(line)
        func text(_ key: String) -> String { request[key]?.stringValue ?? "" }
        func hex(_ key: String) throws -> [UInt8] { try Hex.decode(text(key), prefix: .optional) }
        func key() throws -> EthereumKeyPair {
            try EthereumKeyPair(seed: Hex.decodeSecret(text("secret"), prefix: .optional))
        }
        switch text("op") {
        case "key":
            let k = try key()
            return ["ok": true, "address": .string(k.address), "public": .string(Hex.encode(k.uncompressedPublicKey))]
        case "mnemonic":
            let index = try UInt32(exactly: request["index"]?.integer(as: Int64.self) ?? -1).orThrow()
            let k = try EthereumKeyPair(
                mnemonic: Mnemonic(phrase: text("phrase")), passphrase: text("passphrase"), index: index)
            return ["ok": true, "address": .string(k.address)]
        case "address":
            let a = try EthereumAddress(text("text"))
            return ["ok": true, "checksummed": .string(a.checksummed)]
        case "recover":
            let address = try EthereumKeyPair.recoverAddress(signature: hex("signature"), hash: hex("hash"))
            return ["ok": true, "address": .string(EthereumKeyPair.checksumAddress(address))]
        case "tx":
            // eth_sendTransaction params → transaction → signed, as the gateway will do it.
            let params = try request["params"].orThrow()
            let chainId = try UInt64(text("chainId")).orThrow()
            let tx = try EthereumTransactionRequest(json: params).transaction(chainId: chainId)
            let signed = try tx.sign(with: key())
            return [
                "ok": true, "type": .integer(tx.type.rawValue), "preimage": .string(Hex.encode(tx.signingPayload)),
                "signingHash": .string(Hex.encode(tx.signingHash)), "raw": .string(Hex.encode(signed.raw)),
                "hash": .string(Hex.encode(signed.hash)), "v": .string(signed.v.description),
                "r": .string(Hex.encode(signed.signature.r)), "s": .string(Hex.encode(signed.signature.s)),
            ]
        case "decodeTx":
            switch try EthereumTransaction.decode(hex("raw")) {
            case .unsigned(let tx):
                return ["ok": true, "signed": false, "tx": transactionJSON(tx)]
            case .signed(let s):
                return [
                    "ok": true, "signed": true, "tx": transactionJSON(s.transaction),
                    "sender": .string(try s.recoverSender().checksummed), "hash": .string(Hex.encode(s.hash)),
                    "reencoded": .string(Hex.encode(s.raw)),
                ]
            }
        case "personal":
            let message = try PersonalMessage.messageBytes(param: text("param"))
            let k = try key()
            return [
                "ok": true, "hash": .string(Hex.encode(PersonalMessage.hash(message))),
                "signature": .string(Hex.encode(try PersonalMessage.sign(message, with: k))),
            ]
        case "typed":
            let typed = try TypedData(json: .string(text("json")))
            let digest = try typed.digest()
            var out: JSONObject = [
                "ok": true, "digest": .string(Hex.encode(digest)),
                "domainSeparator": .string(Hex.encode(try typed.domainSeparator())),
                "encodeType": .string(try typed.encodeType(typed.primaryType)),
            ]
            if !text("secret").isEmpty {
                out["signature"] = .string(
                    Hex.encode(try EthereumSignature(bytes65: key().signHash(digest)).messageSignature))
            }
            return .object(out)
        case "rlp":
            let item = try RLP.decode(hex("rlp"))
            return ["ok": true, "reencoded": .string(Hex.encode(RLP.encode(item)))]
        case "keystoreDecrypt":
            let file = try EthereumKeystoreFile.parse(Array(text("json").utf8))
            let k = try file.decrypt(password: Passphrase(text("password")))
            return [
                "ok": true, "address": .string(k.address),
                "secret": .string(Hex.encode(try k.seed.orThrow().unsafeExposedBytes())),
            ]
        case "keystoreEncrypt":
            let kdf: EthereumKeystoreFile.KDF =
                text("kdf") == "pbkdf2"
                ? .pbkdf2(iterations: try request["iterations"].orThrow().integer(as: Int.self).orThrow())
                : .scrypt(n: try request["n"].orThrow().integer(as: UInt32.self).orThrow(), r: 8, p: 1)
            let file = try EthereumKeystoreFile.encrypt(key(), password: Passphrase(text("password")), kdf: kdf)
            return ["ok": true, "json": .string(String(decoding: file.json.encoded(), as: UTF8.self))]
        case "serviceSign":
            // SigningService over an Ethereum keyring of the given secrets: the account an address
            // (any case) resolves to, and signEthereumHash with it, as the gateway adapter calls it.
            var pairs: [String: EthereumKeyPair] = [:]
            var infos: [EthereumAccountInfo] = []
            for secret in request["secrets"]?.arrayValue ?? [] {
                let pair = try EthereumKeyPair(seed: Hex.decodeSecret(secret.stringValue ?? "", prefix: .optional))
                pairs[pair.address] = pair
                infos.append(
                    EthereumAccountInfo(
                        address: pair.address, name: nil, whenCreated: nil, isTesting: false, fileName: ""))
            }
            let service = SigningService(
                accounts: [], store: try SQLiteStateStore.inMemory(),
                ethereum: EthereumKeyring(accounts: infos, pairs: pairs))
            return try serviceSign(service, address: text("address"), hash: hex("hash"))
        case "dirSign":
            // A data directory's Ethereum accounts unlocked once with a password (the `sigil serve`
            // path), then each item (address in any case, hash) signed.
            let store = AccountStore(directory: try DataDirectory.open(text("dir")))
            let keyring = try store.unlockAll(password: Passphrase(text("password")))
            let service = SigningService(keyring: keyring, store: try SQLiteStateStore.inMemory())
            var answers: [JSONValue] = []
            for item in request["items"]?.arrayValue ?? [] {
                let hash = try Hex.decode(item["hash"]?.stringValue ?? "", prefix: .optional)
                do {
                    answers.append(try serviceSign(service, address: item["address"]?.stringValue ?? "", hash: hash))
                } catch {
                    answers.append(failure(error))
                }
            }
            return ["ok": true, "answers": .array(answers)]
        default:
            return ["ok": false, "code": "unknownOp"]
        }
    } catch {
        return failure(error)
    }
}

func serviceSign(_ service: SigningService, address: String, hash: [UInt8]) throws -> JSONValue {
    let key = try service.accountKey(forAddress: address).orThrow()
    let ethereum = service.accounts().filter { $0.type == "ethereum" }
    guard let account = ethereum.first(where: { $0.key == key }) else {
        return ["ok": false, "code": "unknownAccount", "key": .string(key)]
    }
    return [
        "ok": true, "key": .string(key), "address": .string(account.address),
        "signature": .string(Hex.encode(try service.signEthereumHash(hash, account: account))),
        "accounts": .array(ethereum.map { .string($0.key) }),
        "polkadot": .array(service.accounts().filter(\.isPolkadotAccount).map { .string($0.key) }),
    ]
}

struct Missing: Error {}

extension Optional {
    func orThrow() throws -> Wrapped {
        guard let self else { throw Missing() }
        return self
    }
}

while let line = readLine(strippingNewline: true) {
    FileHandle.standardOutput.write(Data(answer(line).encoded() + [0x0a]))
}
