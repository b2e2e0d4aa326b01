// keys-bench: timing loops for scripts/bench-keys. A plain synchronous executable that
// links only SigningKeys, so it also runs under valgrind --tool=callgrind (valgrind 3.19 crashes
// on the `sigil` binary's async main, which parks the main thread in dispatch_main).
//
//   keys-bench SCHEME [--iterations N] [--message-length L] [--only sign|verify|both]
// prints "SCHEME <sign ops/s> <verify ops/s>" (0 for an operation not run). Uses a random key.
import Foundation
import Primitives
import SigningKeys

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data(("keys-bench: " + message + "\n").utf8))
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let schemeName = arguments.first, let scheme = KeyScheme(rawValue: schemeName) else {
    fail("usage: keys-bench sr25519|ed25519|ecdsa|ethereum [--iterations N] [--message-length L] [--only sign|verify]")
}
arguments.removeFirst()
var iterations = 2000
var messageLength = 32
var only = "both"
while arguments.count >= 2 {
    let (flag, value) = (arguments[0], arguments[1])
    arguments.removeFirst(2)
    switch flag {
    case "--iterations": iterations = Int(value) ?? 0
    case "--message-length": messageLength = Int(value) ?? -1
    case "--only": only = value
    default: fail("unknown option \(flag)")
    }
}
guard arguments.isEmpty, iterations > 0, (0...(1 << 20)).contains(messageLength),
    ["sign", "verify", "both"].contains(only)
else { fail("bad arguments") }

do {
    let pair = try KeyPair(seed: SecretBytes.random(count: 32), scheme: scheme)
    let message = [UInt8](repeating: 0x5a, count: messageLength)
    let signature = try pair.sign(message)
    var signRate = 0.0
    var verifyRate = 0.0
    if only != "verify" {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations { _ = try pair.sign(message) }
        signRate = Double(iterations) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    if only != "sign" {
        var ok = true
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations {
            ok = scheme.verify(signature: signature, message: message, signer: pair.publicKey) && ok
        }
        verifyRate = Double(iterations) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        if !ok { fail("benchmark signature did not verify") }
    }
    print("\(scheme.rawValue) \(Int(signRate)) \(Int(verifyRate))")
} catch {
    fail("\(error)")
}
