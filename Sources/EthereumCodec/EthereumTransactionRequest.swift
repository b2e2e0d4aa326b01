import Primitives

/// The params object of `eth_sendTransaction` (docs/reference/ethereum.md §8.3), typed and checked:
/// `{from, to, value, gas, gasPrice, maxFeePerGas, maxPriorityFeePerGas, nonce, data/input,
/// accessList, chainId, type}`. Every number is an EIP-1474 QUANTITY string; `data`/`input` are
/// DATA. `gasLimit` is accepted as an alias of `gas` and `input` of `data` (conflicting duplicates
/// are refused); `null` is the same as absent. Unknown keys are refused: whatever the wallet signs
/// must have been read and shown.
///
/// Filling absent fields (nonce, gas, fees) needs a node and is the caller's job; `transaction`
/// refuses until they are present.
package struct EthereumTransactionRequest: Sendable, Hashable {
    package var from: EthereumAddress
    package var to: EthereumAddress?
    package var gas: UInt64?
    package var gasPrice: UInt256?
    package var maxFeePerGas: UInt256?
    package var maxPriorityFeePerGas: UInt256?
    package var value: UInt256?
    package var nonce: UInt64?
    package var data: [UInt8]?
    package var accessList: [AccessListEntry]?
    package var chainId: UInt64?
    /// The type given or implied by the fee fields (§8.3 step 4): gasPrice → 0 (1 with an access
    /// list), EIP-1559 fees → 2, no fee field → 2 unless `type` says otherwise.
    package var type: EthereumTransactionType

    static let knownKeys: Set<String> = [
        "from", "to", "gas", "gasLimit", "gasPrice", "maxFeePerGas", "maxPriorityFeePerGas", "value", "nonce", "data",
        "input", "accessList", "chainId", "type",
    ]

    /// Parses the params object (the first element of `params`).
    /// - Throws: `.wrongType`, `.missingField` (`from`), `.unknownField`, `.leadingZeros`,
    ///   `.invalidHex`, `.outOfRange`, `.invalidAddress`/`.badChecksum`, `.conflictingFields`,
    ///   `.unsupportedType`, `.invalidValue` (maxPriorityFeePerGas above maxFeePerGas), each naming the field.
    package init(json: JSONValue) throws(EthereumCodecError) {
        guard let object = json.objectValue else {
            throw EthereumCodecError(.wrongType, field: "params[0]", "the transaction is a JSON object")
        }
        for key in object.keys where !Self.knownKeys.contains(key) {
            let shown = key.utf8.count <= 40 && key.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7f } ? key : "<key>"
            throw EthereumCodecError(.unknownField, field: shown, "not an eth_sendTransaction field")
        }
        func string(_ key: String) throws(EthereumCodecError) -> String? {
            guard let v = object[key], !v.isNull else { return nil }
            guard let s = v.stringValue else {
                throw EthereumCodecError(.wrongType, field: key, "a hex string, not a JSON \(v.kindName)")
            }
            return s
        }
        func quantity(_ key: String) throws(EthereumCodecError) -> UInt256? {
            try string(key).map { (s) throws(EthereumCodecError) in try EthereumQuantity.parse(s, field: key) }
        }
        func quantity64(_ key: String) throws(EthereumCodecError) -> UInt64? {
            try string(key).map { (s) throws(EthereumCodecError) in try EthereumQuantity.parse64(s, field: key) }
        }
        guard let fromText = try string("from") else {
            throw EthereumCodecError(.missingField, field: "from", "required")
        }
        from = try EthereumAddress(fromText, field: "from")
        to = try string("to").map { (s) throws(EthereumCodecError) in try EthereumAddress(s, field: "to") }
        let gas = try quantity64("gas")
        let gasLimit = try quantity64("gasLimit")
        if let gas, let gasLimit, gas != gasLimit {
            throw EthereumCodecError(.conflictingFields, field: "gasLimit", "gas and gasLimit differ")
        }
        self.gas = gas ?? gasLimit
        gasPrice = try quantity("gasPrice")
        maxFeePerGas = try quantity("maxFeePerGas")
        maxPriorityFeePerGas = try quantity("maxPriorityFeePerGas")
        value = try quantity("value")
        nonce = try quantity64("nonce")
        let data = try string("data").map { (s) throws(EthereumCodecError) in
            try EthereumQuantity.parseData(s, field: "data")
        }
        let input = try string("input").map { (s) throws(EthereumCodecError) in
            try EthereumQuantity.parseData(s, field: "input")
        }
        if let data, let input, data != input {
            throw EthereumCodecError(.conflictingFields, field: "input", "data and input differ")
        }
        self.data = data ?? input
        chainId = try quantity64("chainId")
        if let list = object["accessList"], !list.isNull {
            accessList = try Self.parseAccessList(list)
        } else {
            accessList = nil
        }
        let declared = try quantity("type").map { (t) throws(EthereumCodecError) -> EthereumTransactionType in
            guard let raw = t.uint64, raw <= 2, let type = EthereumTransactionType(rawValue: UInt8(raw)) else {
                throw EthereumCodecError(.unsupportedType, field: "type", "type is 0x0, 0x1 or 0x2")
            }
            return type
        }
        let hasLegacyFee = gasPrice != nil
        let has1559Fee = maxFeePerGas != nil || maxPriorityFeePerGas != nil
        if hasLegacyFee && has1559Fee {
            throw EthereumCodecError(
                .conflictingFields, field: "gasPrice", "gasPrice cannot be mixed with maxFeePerGas/maxPriorityFeePerGas"
            )
        }
        let implied: EthereumTransactionType =
            hasLegacyFee ? (accessList == nil ? .legacy : .accessList) : .dynamicFee
        let type = declared ?? implied
        switch type {
        case .legacy where has1559Fee || accessList != nil, .accessList where has1559Fee,
            .dynamicFee where hasLegacyFee:
            throw EthereumCodecError(.conflictingFields, field: "type", "the fields do not fit the declared type")
        default: break
        }
        self.type = type
        if let cap = maxFeePerGas, let tip = maxPriorityFeePerGas, tip > cap {
            throw EthereumCodecError(.invalidValue, field: "maxPriorityFeePerGas", "above maxFeePerGas")
        }
    }

    static func parseAccessList(_ value: JSONValue) throws(EthereumCodecError) -> [AccessListEntry] {
        guard let entries = value.arrayValue else {
            throw EthereumCodecError(.wrongType, field: "accessList", "an array of {address, storageKeys}")
        }
        var out = [AccessListEntry]()
        for (i, entry) in entries.enumerated() {
            let field = "accessList[\(i)]"
            guard let object = entry.objectValue, object.count == 2, let address = object["address"]?.stringValue,
                let keys = object["storageKeys"]?.arrayValue
            else { throw EthereumCodecError(.wrongType, field: field, "{address, storageKeys}") }
            var storageKeys = [[UInt8]]()
            for key in keys {
                guard let text = key.stringValue, let bytes = try? Hex.decode(text, prefix: .required, byteCount: 32)
                else {
                    throw EthereumCodecError(.invalidHex, field: field + ".storageKeys", "0x + 64 hex digits")
                }
                storageKeys.append(bytes)
            }
            out.append(
                try AccessListEntry(
                    address: try EthereumAddress(address, field: field + ".address"), storageKeys: storageKeys))
        }
        return out
    }

    /// The transaction to sign on `chainId` (the active chain; never one from the request or a node).
    /// - Throws: `.chainMismatch` when the request names another chain, `.missingField` for an absent
    ///   nonce, gas or fee of the type.
    package func transaction(chainId activeChain: UInt64) throws(EthereumCodecError) -> EthereumTransaction {
        if let chainId, chainId != activeChain {
            throw EthereumCodecError(.chainMismatch, field: "chainId", "the request names another chain")
        }
        guard let nonce else { throw EthereumCodecError(.missingField, field: "nonce", "to be filled before signing") }
        guard let gas else { throw EthereumCodecError(.missingField, field: "gas", "to be filled before signing") }
        var tx = EthereumTransaction(
            type: type, chainId: activeChain, nonce: nonce, gas: gas, to: to, value: value ?? .zero, data: data ?? [],
            accessList: accessList ?? [])
        switch type {
        case .legacy, .accessList:
            guard let gasPrice else { throw EthereumCodecError(.missingField, field: "gasPrice", "to be filled") }
            tx.gasPrice = gasPrice
        case .dynamicFee:
            guard let maxFeePerGas else {
                throw EthereumCodecError(.missingField, field: "maxFeePerGas", "to be filled")
            }
            guard let maxPriorityFeePerGas else {
                throw EthereumCodecError(.missingField, field: "maxPriorityFeePerGas", "to be filled")
            }
            tx.maxFeePerGas = maxFeePerGas
            tx.maxPriorityFeePerGas = maxPriorityFeePerGas
        }
        return tx
    }
}
