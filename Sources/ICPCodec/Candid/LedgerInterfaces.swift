/// The argument types of the ledger methods Sigil shows in words, written from the published
/// interface files (field names and types exactly as there):
/// - ICRC-1 `standards/ICRC-1/ICRC-1.did` (dfinity/ICRC-1): `icrc1_transfer : (TransferArg)`;
/// - ICRC-2 `standards/ICRC-2/ICRC-2.did`: `icrc2_approve : (ApproveArgs)`,
///   `icrc2_transfer_from : (TransferFromArgs)`;
/// - the ICP ledger `rs/ledger_suite/icp/ledger.did` (dfinity/ic): `transfer : (TransferArgs)`,
///   `account_balance : (AccountBalanceArgs)`.
/// docs/reference/icp.md §6 quotes the type definitions.
package indirect enum CandidSchema: Sendable, Hashable {
    case nat
    case nat64
    case principal
    /// `blob` = `vec nat8`.
    case blob
    case opt(CandidSchema)
    case record([SchemaField])

    package struct SchemaField: Sendable, Hashable {
        package let name: String
        package let type: CandidSchema
        package var id: UInt32 { candidFieldId(name) }
    }

    static func record(_ fields: KeyValuePairs<String, CandidSchema>) -> CandidSchema {
        .record(fields.map { SchemaField(name: $0.key, type: $0.value) })
    }

    /// Whether the wire type `ref` (from a message's table) is exactly this schema: same record
    /// fields (no more, no fewer), same primitive types. Bounded by the schema's own depth.
    func matches(_ ref: CandidTypeRef, table: [CandidTypeEntry]) -> Bool {
        switch (self, ref) {
        case (.nat, .primitive(.nat)), (.nat64, .primitive(.nat64)), (.principal, .primitive(.principal)): return true
        case (.blob, .table(let i)): return table[i] == .vec(.primitive(.nat8))
        case (.opt(let inner), .table(let i)):
            guard case .opt(let t) = table[i] else { return false }
            return inner.matches(t, table: table)
        case (.record(let fields), .table(let i)):
            guard case .record(let wire) = table[i], wire.count == fields.count else { return false }
            return fields.allSatisfy { field in
                wire.first { $0.id == field.id }.map { field.type.matches($0.type, table: table) } ?? false
            }
        default: return false
        }
    }
}

/// ICRC-1.did / ICRC-2.did / ledger.did types used below.
enum LedgerTypes {
    /// `type Subaccount = blob;` `type Account = record { owner : principal; subaccount : opt Subaccount };`
    static let account = CandidSchema.record(["owner": .principal, "subaccount": .opt(.blob)])

    /// ICRC-1 `type TransferArg = record { from_subaccount : opt Subaccount; to : Account; amount : nat;
    /// fee : opt nat; memo : opt blob; created_at_time : opt nat64 };`
    static let icrc1TransferArg = CandidSchema.record([
        "from_subaccount": .opt(.blob), "to": account, "amount": .nat, "fee": .opt(.nat), "memo": .opt(.blob),
        "created_at_time": .opt(.nat64),
    ])

    /// ICRC-2 `type ApproveArgs = record { from_subaccount : opt blob; spender : Account; amount : nat;
    /// expected_allowance : opt nat; expires_at : opt nat64; fee : opt nat; memo : opt blob;
    /// created_at_time : opt nat64 };`
    static let icrc2ApproveArgs = CandidSchema.record([
        "from_subaccount": .opt(.blob), "spender": account, "amount": .nat, "expected_allowance": .opt(.nat),
        "expires_at": .opt(.nat64), "fee": .opt(.nat), "memo": .opt(.blob), "created_at_time": .opt(.nat64),
    ])

    /// ICRC-2 `type TransferFromArgs = record { spender_subaccount : opt blob; from : Account; to : Account;
    /// amount : nat; fee : opt nat; memo : opt blob; created_at_time : opt nat64 };`
    static let icrc2TransferFromArgs = CandidSchema.record([
        "spender_subaccount": .opt(.blob), "from": account, "to": account, "amount": .nat, "fee": .opt(.nat),
        "memo": .opt(.blob), "created_at_time": .opt(.nat64),
    ])

    /// ledger.did `type Tokens = record { e8s : nat64 };`
    static let tokens = CandidSchema.record(["e8s": .nat64])
    /// ledger.did `type TimeStamp = record { timestamp_nanos: nat64 };`
    static let timeStamp = CandidSchema.record(["timestamp_nanos": .nat64])

    /// ledger.did `type TransferArgs = record { memo: Memo; amount: Tokens; fee: Tokens;
    /// from_subaccount: opt SubAccount; to: AccountIdentifier; created_at_time: opt TimeStamp };`
    /// with `Memo = nat64`, `SubAccount = blob`, `AccountIdentifier = blob`.
    static let icpTransferArgs = CandidSchema.record([
        "memo": .nat64, "amount": tokens, "fee": tokens, "from_subaccount": .opt(.blob), "to": .blob,
        "created_at_time": .opt(timeStamp),
    ])

    /// ledger.did `type AccountBalanceArgs = record { account: AccountIdentifier };`
    static let icpAccountBalanceArgs = CandidSchema.record(["account": .blob])
}

/// A ledger canister Sigil knows by id: its name, token symbol and decimals.
package struct KnownCanister: Sendable, Hashable {
    package let name: String
    package let symbol: String
    package let decimals: Int

    /// Mainnet ledgers (ids from the IC dashboard and the ckBTC/ckETH/ckUSDC documentation).
    package static let byText: [String: KnownCanister] = [
        "ryjl3-tyaaa-aaaaa-aaaba-cai": KnownCanister(name: "ICP ledger", symbol: "ICP", decimals: 8),
        "mxzaz-hqaaa-aaaar-qaada-cai": KnownCanister(name: "ckBTC ledger", symbol: "ckBTC", decimals: 8),
        "ss2fx-dyaaa-aaaar-qacoq-cai": KnownCanister(name: "ckETH ledger", symbol: "ckETH", decimals: 18),
        "xevnm-gaaaa-aaaar-qafnq-cai": KnownCanister(name: "ckUSDC ledger", symbol: "ckUSDC", decimals: 6),
    ]

    package static func lookup(_ canister: Principal) -> KnownCanister? { byText[canister.text] }
}
