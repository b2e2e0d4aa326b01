import ArgumentParser
import Foundation
import SigningKeys

/// Hidden benchmark helper used by `scripts/bench-keys`: times sign and verify loops in-process
/// for one scheme and prints `scheme sign_ops_per_s verify_ops_per_s`. Uses a random key.
struct KeyBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Time sign/verify loops (for scripts/bench-keys).", shouldDisplay: false)

    @OptionGroup var scheme: SchemeOption
    @Option(name: .long, help: "Iterations per measurement.")
    var iterations: Int = 2000
    @Option(name: .long, help: "Message length in bytes.")
    var messageLength: Int = 32
    @Option(name: .long, help: "Only run this operation: sign, verify or both.")
    var only: String = "both"

    func run() throws {
        guard iterations > 0, (0...1 << 20).contains(messageLength) else {
            throw ValidationError("iterations must be > 0 and message length 0…1 MiB")
        }
        let pair = try KeyPair(seed: SecretBytes.random(count: 32), scheme: scheme.scheme)
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
                ok = ok && scheme.scheme.verify(signature: signature, message: message, signer: pair.publicKey)
            }
            verifyRate = Double(iterations) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            guard ok else { throw KeyCommandFailure("benchmark signature did not verify") }
        }
        print("\(scheme.scheme.rawValue) \(Int(signRate)) \(Int(verifyRate))")
    }
}
