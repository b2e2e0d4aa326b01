import ArgumentParser
import Primitives
import SigningKeys

/// `--message TEXT | --hex 0x…` with optional `--wrap`.
struct MessageOptions: ParsableArguments {
    @Option(name: .long, help: "The message as UTF-8 text.")
    var message: String?

    @Option(name: .long, help: "The message as 0x-prefixed hex bytes.")
    var hex: String?

    @Flag(name: .long, help: "Wrap the message in <Bytes>…</Bytes> as polkadot-js signRaw does.")
    var wrap = false

    func validate() throws {
        guard (message == nil) != (hex == nil) else {
            throw ValidationError("give exactly one of --message TEXT or --hex 0x…")
        }
    }

    func bytes() throws -> [UInt8] {
        var raw: [UInt8]
        if let hex {
            guard hex.hasPrefix("0x") else { throw ValidationError("--hex must start with 0x") }
            do { raw = try Hex.decode(hex, prefix: .required) } catch {
                throw ValidationError("--hex: \(error.reason)")
            }
        } else {
            raw = Array((message ?? "").utf8)
        }
        return wrap ? BytesWrapping.wrap(raw) : raw
    }
}
