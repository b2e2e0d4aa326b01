// SigningPathBench: the synchronous stages of one `pub(extrinsic.sign)` request as `sigil serve
// --dev --auto-approve` runs them, in a loop, for scripts/bench-path. Synchronous (no tasks, no
// actor, no sockets) so that it also runs under valgrind --tool=callgrind, which gives exact
// instruction counts where wall-clock rates on a shared machine are noise.
//
//   SigningPathBench PAYLOAD.json STAGE [--iterations N]
//
// prints "STAGE <ns per operation>". Stages (each one request's worth of work):
//   parse     JSONValue.parse of the request body + WireRequest (DappHandler)
//   address   SigningService.accountKey(forAddress:) (SS58 decode; GatewayService.account)
//   version   SQLiteStateStore.metadataVersion (ChainMetadataCache asks it per request)
//   prepare   SigningService.prepareExtrinsic (metadata lookup, PreparedPayload, summary rows)
//   approval  PolkadotApproval.of of the prepared request (the AdapterApproval queued)
//   headline  its headline, built only when a person is shown it (the decoded call described, its
//             mentions' SS58 forms and identicons); not on the automatic path
//   sign      SigningService.signExtrinsic of the prepared request (sr25519)
//   reply     the reply JSON as GatewayService and DappHandler build and encode it
//   log-text  the three info lines of a signature (access log, approval decided, signed) through
//             TextLogHandler, to standard error (redirect it)
//   log-swift the same three lines through swift-log's StreamLogHandler
//   path      parse + address + prepare + approval + sign + reply + log-text
import Foundation
import Gateway
import GatewayHTTP
import Keystore
import Logging
import Primitives
import ScaleCodec
import SignerCore
import SigningKeys
import StateStore

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data(("SigningPathBench: " + message + "\n").utf8))
    exit(2)
}

let stages = ["parse", "address", "version", "prepare", "approval", "headline", "sign", "reply", "log-text", "log-swift", "path"]
var arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2, let payloadData = FileManager.default.contents(atPath: arguments[0]),
    stages.contains(arguments[1])
else { fail("usage: SigningPathBench PAYLOAD.json \(stages.joined(separator: "|")) [--iterations N]") }
let stage = arguments[1]
arguments.removeFirst(2)
var iterations = 2000
if arguments.count == 2, arguments[0] == "--iterations", let n = Int(arguments[1]), n > 0 {
    iterations = n
} else if !arguments.isEmpty {
    fail("bad arguments")
}

do {
    let alice = SignerAccount(
        key: "0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d",
        address: "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY", name: "Alice", type: "sr25519", genesisHash: nil)
    let store = try SQLiteStateStore.inMemory()
    let signer = SigningService(accounts: [(alice, try KeyPair(uri: "//Alice", scheme: .sr25519))], store: store)
    let payloadJSON = String(decoding: payloadData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    let body = Array("{\"id\":\"w0.1\",\"message\":\"pub(extrinsic.sign)\",\"request\":\(payloadJSON)}".utf8)
    let request = try WireRequest(json: try JSONValue.parse(body))
    guard let genesis = request.request["genesisHash"]?.stringValue else { fail("payload without genesisHash") }
    let prepared = try signer.prepareExtrinsic(payload: request.request, account: alice)
    let signature = try signer.signExtrinsic(prepared)

    let textLogger = Logger(label: "sigil.serve") { TextLogHandler(label: $0) }
    let swiftLogger = Logger(label: "sigil.serve") { StreamLogHandler.standardError(label: $0) }
    let textTelemetry = GatewayTelemetry(logger: Logger(label: "sigil.http") { TextLogHandler(label: $0) })
    let swiftTelemetry = GatewayTelemetry(
        logger: Logger(label: "sigil.http") { StreamLogHandler.standardError(label: $0) })
    let observation = HTTPRequestObservation(
        server: "dapp", port: 9715, requestID: 7, method: .post, route: "/v1/request", status: 200,
        duration: .microseconds(250), bodyBytes: 151)

    func log(_ logger: Logger, _ telemetry: GatewayTelemetry, _ id: Int) {
        telemetry.observe(observation)
        logger.info(
            "approval decided",
            metadata: [
                "approval": "\(id)", "kind": "extrinsic", "origin": "client:bench", "decision": "approved",
                "by": "auto-approve",
            ])
        logger.info(
            "signed",
            metadata: ["approval": "\(id)", "kind": "extrinsic", "scheme": "sr25519", "origin": "client:bench"])
    }
    func reply(_ id: Int) -> [UInt8] {
        let response: JSONValue = ["id": .string(String(id)), "signature": .string(signature.signatureHex)]
        return WireReply(id: request.id, .response(response)).json.encoded()
    }

    // One operation of the stage; not inlined, so callgrind can count only it
    // (--toggle-collect='*benchOperation*').
    @inline(never)
    func benchOperation(_ i: Int) throws -> Int {
        switch stage {
        case "parse": return try WireRequest(json: try JSONValue.parse(body)).id.utf8.count
        case "address": return signer.accountKey(forAddress: alice.address)?.utf8.count ?? 0
        case "version": return Int(try store.metadataVersion(genesisHash: genesis) ?? 0)
        case "prepare": return try signer.prepareExtrinsic(payload: request.request, account: alice).summary.count
        case "approval": return PolkadotApproval.of(prepared, account: alice, source: "client:bench").summary.count
        case "headline":
            return PolkadotApproval.of(prepared, account: alice, source: "client:bench").headline?.parts.count ?? 0
        case "sign": return try signer.signExtrinsic(prepared).signature.encoded.count
        case "reply": return reply(i).count
        case "log-text":
            log(textLogger, textTelemetry, i)
            return 0
        case "log-swift":
            log(swiftLogger, swiftTelemetry, i)
            return 0
        default:
            let wire = try WireRequest(json: try JSONValue.parse(body))
            guard signer.accountKey(forAddress: alice.address) == alice.key else { fail("address") }
            let ready = try signer.prepareExtrinsic(payload: wire.request, account: alice)
            _ = PolkadotApproval.of(ready, account: alice, source: "client:bench")
            log(textLogger, textTelemetry, i)
            return try signer.signExtrinsic(ready).signature.encoded.count + reply(i).count
        }
    }

    var sink = 0
    let start = DispatchTime.now().uptimeNanoseconds
    for i in 0..<iterations { sink &+= try benchOperation(i) }
    let elapsed = DispatchTime.now().uptimeNanoseconds - start
    print("\(stage) \(elapsed / UInt64(iterations)) \(sink == -1 ? "!" : "")")
} catch {
    fail("\(error)")
}
