import CSodium
import Foundation
import Keystore
import Primitives
import SigilTesting
import SigningKeys
import StateStore

/// The writer process: changes the data directory forever, announcing each change before (`B`) and
/// after (`C`) it is committed. Killed by the harness at a random instant.
struct StressWriter {
    static let password = "stress-password"

    let directory: DataDirectory
    let round: UInt64
    let writer: UInt64

    func run() throws -> Never {
        var rng = SplitMix64(seed: round &* 1_000_003 &+ writer)
        let accounts = AccountStore(directory: directory)
        let state = try SQLiteStateStore(path: directory.databasePath)
        let password = Passphrase(Self.password)
        emit("R ready")  // the harness starts its random delay from here
        var counter = 0
        while true {
            counter += 1
            // Items carry their writer's id; a writer changes only its own, so that with several
            // writers at once each one's output is the exact history of its items.
            let mark = "-w\(writer)-"
            let tag = "\(round)\(mark)\(counter)"
            let all = try accounts.list().accounts
            let known = all.filter { $0.name?.contains(mark) ?? false }
            let roll = Int.random(in: 0..<100, using: &rng)
            switch roll {
            case 0..<25:
                let pair = try KeyPair(uri: "//stress//\(tag)", scheme: counter % 3 == 0 ? .ed25519 : .sr25519)
                let name = "n-\(tag)"
                let fileName = pair.publicKey.hexString + ".json"
                emit("B account \(fileName) \(name)|-")
                try accounts.add(pair, name: name, password: password)
                emit("C account \(fileName) \(name)|\(try Self.fileHash(directory, fileName))")
            case 25..<35 where !known.isEmpty:
                let target = known[Int.random(in: 0..<known.count, using: &rng)]
                let name = "r-\(tag)"
                emit("B account \(target.fileName) \(name)|-")
                try accounts.rename(target.address, to: name)
                emit("C account \(target.fileName) \(name)|\(try Self.fileHash(directory, target.fileName))")
            case 35..<65:
                let sites = try state.connectedSites().filter { $0.origin.contains(mark) }
                let existing = roll >= 50 && !sites.isEmpty
                let origin =
                    existing ? sites[Int.random(in: 0..<sites.count, using: &rng)].origin : "https://s-\(tag).example"
                let chosen = all.shuffled(using: &rng).prefix(Int.random(in: 0...3, using: &rng)).map(\.address)
                let value = chosen.isEmpty ? "none" : chosen.joined(separator: ",")
                emit("B site \(origin) \(value)")
                if existing && roll % 2 == 1 {
                    // This writer's own site: only it revokes it, so it is still connected.
                    guard try state.updateAccounts(origin: origin, accounts: chosen) != nil else {
                        throw StateStoreError(.database, "own site \(origin) vanished")
                    }
                } else {
                    try state.authorize(origin: origin, name: "Site \(tag)", accounts: chosen)
                }
                emit("C site \(origin) \(value)")
            case 65..<70:
                let sites = try state.connectedSites().filter { $0.origin.contains(mark) }
                guard let site = sites.randomElement(using: &rng) else { continue }
                emit("B site \(site.origin) -")
                try state.revoke(origin: site.origin)
                emit("C site \(site.origin) -")
            case 70..<90:
                let genesis =
                    "0x" + String(format: "%02x", writer % 256)
                    + String(repeating: String(format: "%02x", Int.random(in: 0..<6, using: &rng)), count: 31)
                let size = Int.random(in: 20_000...600_000, using: &rng)
                var blob = [UInt8](repeating: 0, count: size)
                for i in stride(from: 0, to: size, by: 8) {
                    let word = rng.next()
                    for j in 0..<min(8, size - i) { blob[i + j] = UInt8(truncatingIfNeeded: word >> (8 * j)) }
                }
                let spec = UInt32(counter)
                let value = "\(spec):\(fastHash(blob).hexString)"
                emit("B meta \(genesis) \(value)")
                try state.saveMetadata(
                    ChainMetadata(genesisHash: genesis, specVersion: spec, chain: "Chain \(tag)", metadata: blob))
                emit("C meta \(genesis) \(value)")
            case 90..<95 where !known.isEmpty:
                let target = known[Int.random(in: 0..<known.count, using: &rng)]
                emit("B account \(target.fileName) -")
                try accounts.remove(target.address)
                emit("C account \(target.fileName) -")
            default:
                let key = "w\(writer)k\(Int.random(in: 0..<8, using: &rng))"
                let value = "v-\(tag)"
                emit("B setting \(key) \(value)")
                try state.setSetting(key, to: value)
                emit("C setting \(key) \(value)")
            }
        }
    }

    /// One unbuffered `write(2)` per line, so a SIGKILL never splits a line.
    private func emit(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }

    static func fileHash(_ directory: DataDirectory, _ fileName: String) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: directory.accountsPath + "/" + fileName))
        return fastHash([UInt8](data)).hexString
    }
}

extension Array where Element == UInt8 {
    var hexString: String { "0x" + map { String(format: "%02x", $0) }.joined() }
}

/// BLAKE2b-256 through libsodium (C): the Swift implementation is slow in debug builds, and this tool
/// hashes megabytes per round.
func fastHash(_ bytes: [UInt8]) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: 32)
    _ = bytes.withUnsafeBufferPointer { b in
        crypto_generichash(&out, 32, b.baseAddress, UInt64(b.count), nil, 0)
    }
    return out
}
