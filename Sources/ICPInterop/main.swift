// A JSON-lines filter for scripts/test.d/17-interop-icp.sh: one request per input line, one answer
// per output line, so that the Python side (icp-py-core, cbor2, coincurve, PyNaCl) can check
// hundreds of principals, request ids, envelopes, PEM files and Candid values against one process.
// Test support only: it handles the throwaway secrets it is given, and is not part of `sigil`.
import Foundation
import ICPCodec
import Primitives
import SigningKeys

func candidJSON(_ v: CandidValue) -> JSONValue {
    func tagged(_ tag: String, _ rest: JSONValue...) -> JSONValue { .array([.string(tag)] + rest) }
    switch v {
    case .null: return tagged("null")
    case .bool(let b): return tagged("bool", .bool(b))
    case .nat(let n): return tagged("nat", .string(n.description))
    case .int(let negative, let n): return tagged("int", .string((negative && !n.isZero ? "-" : "") + n.description))
    case .nat8(let x): return tagged("nat8", .string("\(x)"))
    case .nat16(let x): return tagged("nat16", .string("\(x)"))
    case .nat32(let x): return tagged("nat32", .string("\(x)"))
    case .nat64(let x): return tagged("nat64", .string("\(x)"))
    case .int8(let x): return tagged("int8", .string("\(x)"))
    case .int16(let x): return tagged("int16", .string("\(x)"))
    case .int32(let x): return tagged("int32", .string("\(x)"))
    case .int64(let x): return tagged("int64", .string("\(x)"))
    case .float32(let bits): return tagged("float32", .string(String(bits, radix: 16)))
    case .float64(let bits): return tagged("float64", .string(String(bits, radix: 16)))
    case .text(let t): return tagged("text", .string(t))
    case .reserved: return tagged("reserved")
    case .principal(let p): return tagged("principal", .string(p.text))
    case .opt(nil): return tagged("opt")
    case .opt(let inner?): return tagged("opt", candidJSON(inner))
    case .blob(let b): return tagged("blob", .string(Hex.encode(b, prefix: false)))
    case .vec(let items): return tagged("vec", .array(items.map(candidJSON)))
    case .repeated(let count, let element):
        return tagged("vec", .array([JSONValue](repeating: candidJSON(element), count: Int(clamping: count))))
    case .record(let fields):
        return tagged("record", .array(fields.map { .array([.string("\($0.id)"), candidJSON($0.value)]) }))
    case .variant(let id, _, let value): return tagged("variant", .string("\(id)"), candidJSON(value))
    case .function(let service, let method): return tagged("func", .string(service.text), .string(method))
    case .service(let p): return tagged("service", .string(p.text))
    }
}

func answer(_ line: String) -> JSONValue {
    do {
        let request = try JSONValue.parse(line)
        let op = request["op"]?.stringValue ?? ""
        func text(_ key: String) -> String { request[key]?.stringValue ?? "" }
        func hex(_ key: String) throws -> [UInt8] { try Hex.decode(text(key), prefix: .forbidden) }
        switch op {
        case "principalFromHex":
            let p = try Principal(bytes: hex("hex"))
            return ["ok": true, "text": .string(p.text), "accountId": .string(try p.accountIdentifier().hex)]
        case "principalFromText":
            return ["ok": true, "hex": .string(Hex.encode(try Principal(text: text("text")).bytes, prefix: false))]
        case "account":
            let p = try Principal(text: text("principal"))
            let sub = try hex("subaccount")
            let account = try ICRC1Account(owner: p, subaccount: sub)
            return [
                "ok": true, "accountId": .string(try p.accountIdentifier(subaccount: sub).hex),
                "icrc1": .string(account.text),
                "roundTrip": .bool(try ICRC1Account(text: account.text) == account),
            ]
        case "requestId":
            // Any CBOR map (as cbor2 wrote it) → request id; also the typed content when it is one.
            let value = try CBORDecoder.decode(hex("cbor"))
            guard case .map = value.untagged, case .map(let m) = try HashableValue(cbor: value.untagged) else {
                return ["ok": false, "code": "notAMap"]
            }
            return ["ok": true, "requestId": .string(Hex.encode(HashableValue.hashOfMap(m), prefix: false))]
        case "sign":
            let algorithm = IcpKeyPair.Algorithm(rawValue: text("algorithm")) ?? .secp256k1
            let key = try IcpKeyPair(
                secretKey: Hex.decodeSecret(text("secret"), prefix: .forbidden), algorithm: algorithm)
            let sender = Principal(selfAuthenticating: key.derPublicKey)
            guard let now = UInt64(text("now")) else { return ["ok": false, "code": "badNow"] }
            let expiry = request["expiry"]?.stringValue.flatMap { UInt64($0) }
            let nonce = request["nonce"]?.stringValue.flatMap { try? Hex.decode($0, prefix: .forbidden) }
            let content: ICPRequestContent
            if text("type") == "read_state" {
                let paths = (request["paths"]?.arrayValue ?? []).map { path in
                    (path.arrayValue ?? []).compactMap {
                        $0.stringValue.flatMap { try? Hex.decode($0, prefix: .forbidden) }
                    }
                }
                content = try ICPRequestContent(
                    readStatePaths: paths, sender: sender, nonce: nonce, ingressExpiry: expiry, now: now)
            } else {
                content = try ICPRequestContent(
                    text("type") == "query" ? .query : .call, sender: sender,
                    canisterId: Principal(text: text("canister")), methodName: text("method"), arg: hex("arg"),
                    nonce: nonce, ingressExpiry: expiry, now: now)
            }
            let envelope = try ICPEnvelope(signing: content, with: key)
            return [
                "ok": true, "sender": .string(sender.text),
                "requestId": .string(Hex.encode(content.requestId, prefix: false)),
                "envelope": .string(Hex.encode(envelope.encoded, prefix: false)),
                "der": .string(Hex.encode(key.derPublicKey, prefix: false)),
            ]
        case "verifyEnvelope":
            let envelope = try ICPEnvelope(cborBytes: hex("envelope"))
            return [
                "ok": true, "requestId": .string(Hex.encode(envelope.requestId, prefix: false)),
                "sender": .string(envelope.content.sender.text),
            ]
        case "keysmith":
            // secp256k1 at m/44'/223'/0'/0/n (keysmith), or with "algorithm": "ed25519" SLIP-0010 at
            // m/44'/223'/0'/0'/n' (Internet Identity, @dfinity/identity).
            let algorithm = IcpKeyPair.Algorithm(rawValue: text("algorithm")) ?? .secp256k1
            let index = request["index"]?.integer(as: UInt32.self) ?? 0
            let key = try IcpKeyPair(
                mnemonic: Mnemonic(phrase: text("phrase")), passphrase: text("passphrase"), index: index,
                algorithm: algorithm)
            let principal = Principal(selfAuthenticating: key.derPublicKey)
            return [
                "ok": true, "secret": .string(Hex.encode(key.secretKey.unsafeExposedBytes(), prefix: false)),
                "publicKey": .string(Hex.encode(key.rawPublicKey, prefix: false)),
                "principal": .string(principal.text), "accountId": .string(try principal.accountIdentifier().hex),
                "path": .string(try IcpKeyPair.path(index: index, algorithm: algorithm).description),
            ]
        case "pemWrite":
            let algorithm = IcpKeyPair.Algorithm(rawValue: text("algorithm")) ?? .secp256k1
            let key = try IcpKeyPair(
                secretKey: Hex.decodeSecret(text("secret"), prefix: .forbidden), algorithm: algorithm)
            return ["ok": true, "pem": .string(key.pem())]
        case "pemRead":
            let key = try IcpKeyPair(pem: text("pem"))
            return [
                "ok": true, "algorithm": .string(key.algorithm.rawValue),
                "secret": .string(Hex.encode(key.secretKey.unsafeExposedBytes(), prefix: false)),
                "principal": .string(Principal(selfAuthenticating: key.derPublicKey).text),
            ]
        case "candid":
            let message = try CandidDecoder.decode(hex("bytes"))
            var out: JSONValue = ["ok": true, "values": .array(message.values.map(candidJSON))]
            if let method = request["method"]?.stringValue {
                let rendered = RenderedCall.render(
                    canister: try Principal(text: text("canister")), method: method, arg: try hex("bytes"))
                out = out.adding("recognised", .bool(rendered.recognised)).adding("summary", .string(rendered.summary))
                    .adding(
                        "lines",
                        .object(
                            Dictionary(
                                rendered.lines.map { ($0.label, JSONValue.string($0.value)) },
                                uniquingKeysWith: { a, _ in a })))
            }
            return out
        default:
            return ["ok": false, "code": "unknownOp"]
        }
    } catch let error as ICPCodecError {
        return ["ok": false, "code": .string(error.code.rawValue)]
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
