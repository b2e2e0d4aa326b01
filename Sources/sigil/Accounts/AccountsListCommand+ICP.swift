import ICPCodec
import Keystore
import Primitives
import SigningKeys

extension AccountsListCommand {
    /// `sigil accounts list --chain icp`: the stored Internet Computer identities (no password: only
    /// public keys are stored in clear).
    func listIcp() throws {
        let directory = try dataDirectory.open()
        let (identities, problems) = try keystore { try IcpIdentityStore(directory: directory).list() }
        for problem in problems { warn("skipped icp/\(problem): malformed") }
        let rows: [[String: JSONValue]] = try identities.map { info in
            let principal = Principal(selfAuthenticating: info.derPublicKey)
            var row: [String: JSONValue] = [
                "principal": .string(principal.text), "accountId": .string(try principal.accountIdentifier().hex),
                "algorithm": .string(info.algorithm.rawValue),
            ]
            row["name"] = info.name.map(JSONValue.string)
            row["derivationPath"] = info.derivationPath.map(JSONValue.string)
            return row
        }
        if json {
            print(JSONValue.array(rows.map(JSONValue.object)).serialized([.pretty, .sortedKeys]))
            return
        }
        if rows.isEmpty { print("No ICP identities (add one with `sigil accounts add --chain icp`).") }
        for row in rows {
            let name = row["name"]?.stringValue.map { " \($0)" } ?? ""
            print(
                "\(row["principal"]?.stringValue ?? "")\(name) (\(row["algorithm"]?.stringValue ?? ""))  account \(row["accountId"]?.stringValue ?? "")"
            )
        }
    }
}
