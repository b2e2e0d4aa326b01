import Foundation
import Keystore
import Primitives
import SigningKeys

/// How `sigil accounts` prints an account: a table row, or JSON for scripts.
struct AccountReport: Encodable {
    var address: String
    var publicKey: String
    var scheme: String
    var name: String?
    var whenCreated: Int64?
    var genesisHash: String?
    var isHidden: Bool
    var file: String
    /// Only for `add` without a URI: the generated mnemonic, shown once.
    var secretPhrase: String?
    /// Only for `import`: false when the account was already stored.
    var imported: Bool?

    init(_ info: AccountInfo, directory: DataDirectory) {
        address = info.address
        publicKey = info.publicKeyHex
        scheme = info.scheme.rawValue
        name = info.name
        whenCreated = info.whenCreated
        genesisHash = info.genesisHash
        isHidden = info.isHidden
        file = directory.accountsPath + "/" + info.fileName
    }

    var created: String {
        guard let whenCreated else { return "-" }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: Date(timeIntervalSince1970: Double(whenCreated) / 1000))
    }

    static func table(_ reports: [AccountReport]) -> String {
        guard !reports.isEmpty else { return "No accounts." }
        let nameWidth = max(4, reports.map { ($0.name ?? "").count }.max() ?? 0)
        let schemeWidth = max(7, reports.map(\.scheme.count).max() ?? 0)
        var lines = [
            "NAME".padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  "
                + "ADDRESS".padding(toLength: 48, withPad: " ", startingAt: 0) + "  "
                + "SCHEME".padding(toLength: schemeWidth, withPad: " ", startingAt: 0) + "  CREATED     FLAGS"
        ]
        for r in reports {
            var flags: [String] = []
            if r.isHidden { flags.append("hidden") }
            if let genesisHash = r.genesisHash { flags.append("chain " + genesisHash.prefix(10) + "…") }
            lines.append(
                (r.name ?? "").padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  "
                    + r.address.padding(toLength: 48, withPad: " ", startingAt: 0) + "  "
                    + r.scheme.padding(toLength: schemeWidth, withPad: " ", startingAt: 0) + "  "
                    + r.created.padding(toLength: 10, withPad: " ", startingAt: 0) + "  "
                    + flags.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ value: some Encodable) throws -> String {
        try JSONValueEncoder().encode(value).serialized([.pretty, .sortedKeys])
    }
}

/// Runs keystore (and state store) calls, turning their errors into one-line command failures.
func keystore<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch {
        throw CLIFailure.storage(error)
    }
}
