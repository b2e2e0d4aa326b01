import IconCodec
import Keystore
import Primitives
import SigningKeys

/// ICON signing (docs/reference/icon.md §3–§5): ICON accounts are listed beside the Substrate ones
/// with key = their `hx` address and type `icon`; a transaction is validated and hashed once, when
/// it is prepared, and the approved request's hash is what gets signed.
extension SigningService {
    /// The unlocked ICON accounts as sites see them (`type` `icon`, key = address).
    func iconAccounts() -> [SignerAccount] {
        icon.unlockedAccounts.map {
            SignerAccount(key: $0.address, address: $0.address, name: $0.name, type: "icon", genesisHash: nil)
        }
    }

    /// `hx` + 40 lower-case hex digits is its own key; anything else is not an ICON address.
    func iconAccountKey(forAddress address: String) -> String? {
        let u = Array(address.utf8)
        guard u.count == 42, u[2...].allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) else {
            return nil
        }
        return address
    }

    package func prepareIcon(
        transaction: JSONValue, action: IconSigningRequest.Action, account: SignerAccount, now: Int64
    ) throws -> IconSigningRequest {
        guard account.type == "icon", icon.keyPair(for: account.key) != nil else {
            throw SignerError(.unknownAccount, "not an unlocked ICON account")
        }
        let tx = try IconTransaction(json: transaction)
        guard tx.from == account.address else {
            throw SignerError(.unknownAccount, "the transaction's from is not the account")
        }
        var names: [String: String] = [:]
        for other in iconAccounts() { names[other.address] = other.name ?? "unnamed" }
        var rows = IconSummary.rows(tx, account: account, names: names, now: now)
        if action == .signOnly {
            rows.append(
                SummaryRow("note", "the site, not Sigil, will send this transaction; Sigil only returns the signature"))
        }
        return IconSigningRequest(
            action: action, accountKey: account.key, transaction: tx, hash: tx.hash, summary: rows)
    }

    package func prepareIconHash(hash: [UInt8], account: SignerAccount) throws -> IconSigningRequest {
        guard account.type == "icon", icon.keyPair(for: account.key) != nil else {
            throw SignerError(.unknownAccount, "not an unlocked ICON account")
        }
        guard hash.count == 32 else { throw SignerError(.badLength, "an ICON hash is 32 bytes") }
        let rows = [
            SummaryRow(
                "WARNING",
                "BLIND SIGNING: the site asks for a signature of a bare hash. Sigil cannot show what it "
                    + "stands for; it may be a transaction that moves all your funds. Approve only if you trust "
                    + "this site completely.", warning: true),
            SummaryRow("account", account.label),
            SummaryRow("hash", Hex.encode(hash), warning: true),
        ]
        return IconSigningRequest(
            action: .blindHash, accountKey: account.key, transaction: nil, hash: hash, summary: rows)
    }

    package func signIcon(_ request: IconSigningRequest) throws -> IconSignature {
        guard let pair = icon.keyPair(for: request.accountKey) else {
            throw SignerError(.unknownAccount, "no key for the account")
        }
        if let tx = request.transaction {
            // The prepared transaction's own hash (computed once from the validated fields).
            guard tx.from == pair.address, tx.hash == request.hash else {
                throw SignerError(.unknownAccount, "the approved transaction belongs to another account")
            }
        }
        let signature = try pair.signHash(request.hash)
        let base64 = try pair.signHashBase64(request.hash)
        return IconSignature(
            signature: signature, base64: base64,
            signedTransaction: request.transaction?.signed(signatureBase64: base64))
    }
}
