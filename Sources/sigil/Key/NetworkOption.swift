import ArgumentParser
import SigningKeys

/// `--network`: an SS58 prefix number (0…16383) or a known network name.
struct NetworkOption: ParsableArguments {
    @Option(name: .long, help: "SS58 network: a prefix 0…16383 or polkadot, kusama, substrate, westend, …")
    var network: String = "substrate"

    static let names: [String: UInt16] = [
        "polkadot": 0, "kusama": 2, "westend": 42, "rococo": 42, "paseo": 0, "substrate": 42, "generic": 42,
        "acala": 10, "karura": 8, "astar": 5, "shiden": 5, "moonbeam": 1284, "moonriver": 1285,
    ]

    /// The prefix and a display name.
    func resolve() throws -> (prefix: UInt16, name: String) {
        let key = network.lowercased()
        if let prefix = Self.names[key] { return (prefix, key) }
        if let n = UInt16(network), n <= 16383, n != 46, n != 47 { return (n, network) }
        throw ValidationError("unknown network '\(network)': give a prefix 0…16383 (not 46/47) or a known name")
    }
}
