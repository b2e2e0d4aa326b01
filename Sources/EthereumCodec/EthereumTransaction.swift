import Primitives
import SigningKeys

/// An EIP-2718 transaction type this codec signs and decodes (docs/reference/ethereum.md §8.2).
package enum EthereumTransactionType: UInt8, Sendable, Hashable, CaseIterable {
    /// Legacy; Sigil signs it only with EIP-155 replay protection.
    case legacy = 0
    /// EIP-2930: gas price and an access list.
    case accessList = 1
    /// EIP-1559: priority fee and fee cap.
    case dynamicFee = 2
}

/// One access-list entry (EIP-2930): an address and 32-byte storage keys.
package struct AccessListEntry: Sendable, Hashable {
    package var address: EthereumAddress
    /// 32 bytes each.
    package var storageKeys: [[UInt8]]

    package init(address: EthereumAddress, storageKeys: [[UInt8]]) throws(EthereumCodecError) {
        guard storageKeys.allSatisfy({ $0.count == 32 }) else {
            throw EthereumCodecError(.invalidValue, field: "storageKeys", "a storage key is 32 bytes")
        }
        self.address = address
        self.storageKeys = storageKeys
    }

    var rlp: RLPItem { .list([.bytes(address.bytes), .list(storageKeys.map { .bytes($0) })]) }
}

/// An unsigned Ethereum transaction with exact typed fields (docs/reference/ethereum.md §8.2):
/// legacy with EIP-155, EIP-2930 (type 1) or EIP-1559 (type 2).
///
/// `signingPayload` is the exact preimage whose Keccak-256 the key signs; `sign` produces the
/// broadcast form. Fields that a type does not carry are ignored for it (`gasPrice` for type 2,
/// the EIP-1559 fees and the access list for legacy).
package struct EthereumTransaction: Sendable, Hashable {
    package var type: EthereumTransactionType
    /// The chain id; `nil` only for a pre-EIP-155 legacy transaction read by `decode`, which Sigil
    /// never signs.
    package var chainId: UInt64?
    package var nonce: UInt64
    /// Legacy and type 1.
    package var gasPrice: UInt256
    /// Type 2.
    package var maxPriorityFeePerGas: UInt256
    /// Type 2.
    package var maxFeePerGas: UInt256
    package var gas: UInt64
    /// `nil` creates a contract.
    package var to: EthereumAddress?
    package var value: UInt256
    package var data: [UInt8]
    /// Types 1 and 2.
    package var accessList: [AccessListEntry]

    package init(
        type: EthereumTransactionType, chainId: UInt64?, nonce: UInt64, gasPrice: UInt256 = .zero,
        maxPriorityFeePerGas: UInt256 = .zero, maxFeePerGas: UInt256 = .zero, gas: UInt64, to: EthereumAddress?,
        value: UInt256 = .zero, data: [UInt8] = [], accessList: [AccessListEntry] = []
    ) {
        self.type = type
        self.chainId = chainId
        self.nonce = nonce
        self.gasPrice = gasPrice
        self.maxPriorityFeePerGas = maxPriorityFeePerGas
        self.maxFeePerGas = maxFeePerGas
        self.gas = gas
        self.to = to
        self.value = value
        self.data = data
        self.accessList = accessList
    }

    /// The fields as RLP items, without signature, in the order of the type (§8.2 table).
    var fieldItems: [RLPItem] {
        let to: RLPItem = .bytes(self.to?.bytes ?? [])
        let access: RLPItem = .list(accessList.map(\.rlp))
        switch type {
        case .legacy:
            return [.uint(nonce), .uint(gasPrice), .uint(gas), to, .uint(value), .bytes(data)]
        case .accessList:
            return [
                .uint(chainId ?? 0), .uint(nonce), .uint(gasPrice), .uint(gas), to, .uint(value), .bytes(data), access,
            ]
        case .dynamicFee:
            return [
                .uint(chainId ?? 0), .uint(nonce), .uint(maxPriorityFeePerGas), .uint(maxFeePerGas), .uint(gas), to,
                .uint(value), .bytes(data), access,
            ]
        }
    }

    /// The bytes whose Keccak-256 is signed: `rlp([nonce, gasPrice, gas, to, value, data, chainId, 0, 0])`
    /// for EIP-155 legacy (six fields without a chain id), `type ‖ rlp(fields)` for types 1 and 2.
    /// This is also the unsigned serialized form `decode` reads.
    package var signingPayload: [UInt8] {
        switch type {
        case .legacy:
            guard let chainId else { return RLP.encode(.list(fieldItems)) }
            return RLP.encode(.list(fieldItems + [.uint(chainId), .bytes([]), .bytes([])]))
        case .accessList, .dynamicFee:
            return [type.rawValue] + RLP.encode(.list(fieldItems))
        }
    }

    /// Keccak-256 of `signingPayload`.
    package var signingHash: [UInt8] { Keccak256.hash(signingPayload) }

    /// Attaches a signature `r ‖ s ‖ yParity` (65 bytes, yParity 0/1 or 27/28).
    /// - Throws: `.invalidSignature` (length, v, high-S, r or s zero), `.chainMismatch` for a legacy
    ///   transaction without chain id (pre-EIP-155; never produced).
    package func signed(signature: [UInt8]) throws(EthereumCodecError) -> SignedEthereumTransaction {
        let sig = try EthereumSignature(bytes65: signature)
        return try SignedEthereumTransaction(transaction: self, signature: sig)
    }

    /// Signs with `key`: deterministic (RFC 6979), low-S.
    /// - Throws: `.chainMismatch` when there is no chain id; `KeyError` from the key.
    package func sign(with key: EthereumKeyPair) throws -> SignedEthereumTransaction {
        guard chainId != nil else {
            throw EthereumCodecError(
                .chainMismatch, field: "chainId", "Sigil signs legacy transactions only with EIP-155")
        }
        return try signed(signature: key.signHash(signingHash))
    }

    /// What `decode` read: an unsigned transaction (its signing payload) or a signed one.
    package enum Decoded: Sendable, Hashable {
        case unsigned(EthereumTransaction)
        case signed(SignedEthereumTransaction)
    }

    /// Decodes a serialized transaction: signed (the `eth_sendRawTransaction` form) or unsigned (the
    /// signing payload). Legacy when the first byte is ≥ 0xc0, else the type byte must be 1 or 2.
    /// Untrusted input: strict RLP, exact field counts, canonical integers, 64-bit nonce/gas/chain
    /// id, 20-byte `to`, 32-byte storage keys, low-S signatures.
    /// - Throws: `EthereumCodecError` naming the field or the offset.
    package static func decode(_ bytes: [UInt8]) throws(EthereumCodecError) -> Decoded {
        guard let first = bytes.first else { throw EthereumCodecError(.truncated, at: 0, "no bytes") }
        if first >= 0xc0 { return try decodeLegacy(bytes) }
        guard let type = EthereumTransactionType(rawValue: first), type != .legacy else {
            throw EthereumCodecError(.unsupportedType, at: 0, "transaction type \(first) is not 1 or 2")
        }
        let rlp: RLPItem
        do { rlp = try RLP.decode(Array(bytes.dropFirst())) } catch {
            throw EthereumCodecError(error.code, at: error.offset.map { $0 + 1 }, field: error.field, error.reason)
        }
        let items = try rlp.items("transaction")
        let fieldCount = type == .accessList ? 8 : 9
        guard items.count == fieldCount || items.count == fieldCount + 3 else {
            throw EthereumCodecError(.wrongType, field: "transaction", "\(items.count) fields for type \(first)")
        }
        let chainId = try items[0].uint64("chainId")
        let nonce = try items[1].uint64("nonce")
        let tx: EthereumTransaction
        let rest: ArraySlice<RLPItem>
        if type == .accessList {
            tx = EthereumTransaction(
                type: type, chainId: chainId, nonce: nonce, gasPrice: try items[2].integer("gasPrice"),
                gas: try items[3].uint64("gas"), to: try decodeTo(items[4]), value: try items[5].integer("value"),
                data: try items[6].byteString("data"), accessList: try decodeAccessList(items[7]))
            rest = items[8...]
        } else {
            tx = EthereumTransaction(
                type: type, chainId: chainId, nonce: nonce,
                maxPriorityFeePerGas: try items[2].integer("maxPriorityFeePerGas"),
                maxFeePerGas: try items[3].integer("maxFeePerGas"), gas: try items[4].uint64("gas"),
                to: try decodeTo(items[5]), value: try items[6].integer("value"), data: try items[7].byteString("data"),
                accessList: try decodeAccessList(items[8]))
            rest = items[9...]
        }
        guard rest.count == 3 else { return .unsigned(tx) }
        let parity = try rest[rest.startIndex].integer("yParity")
        guard parity <= UInt256(1), let yParity = parity.uint64 else {
            throw EthereumCodecError(.invalidSignature, field: "yParity", "yParity is 0 or 1")
        }
        let sig = try EthereumSignature(
            r: try signatureWord(rest[rest.startIndex + 1], "r"), s: try signatureWord(rest[rest.startIndex + 2], "s"),
            yParity: UInt8(truncatingIfNeeded: yParity))
        return .signed(try SignedEthereumTransaction(transaction: tx, signature: sig))
    }

    static func decodeLegacy(_ bytes: [UInt8]) throws(EthereumCodecError) -> Decoded {
        let items = try RLP.decode(bytes).items("transaction")
        guard items.count == 6 || items.count == 9 else {
            throw EthereumCodecError(.wrongType, field: "transaction", "\(items.count) fields for a legacy transaction")
        }
        var tx = EthereumTransaction(
            type: .legacy, chainId: nil, nonce: try items[0].uint64("nonce"),
            gasPrice: try items[1].integer("gasPrice"),
            gas: try items[2].uint64("gas"), to: try decodeTo(items[3]), value: try items[4].integer("value"),
            data: try items[5].byteString("data"))
        guard items.count == 9 else { return .unsigned(tx) }
        let v = try items[6].integer("v")
        let r = try items[7].integer("r")
        let s = try items[8].integer("s")
        if r.isZero && s.isZero {
            // EIP-155 signing payload: [..., chainId, 0, 0].
            guard let chainId = v.uint64 else {
                throw EthereumCodecError(.outOfRange, field: "chainId", "wider than 64 bits")
            }
            tx.chainId = chainId
            return .unsigned(tx)
        }
        let yParity: UInt64
        if v == UInt256(27) || v == UInt256(28) {
            yParity = (v.uint64 ?? 27) - 27
        } else {
            guard let offset = v.subtracting(UInt256(35)) else {
                throw EthereumCodecError(.invalidSignature, field: "v", "v is not 27, 28 or chainId·2 + 35/36")
            }
            let (half, parity) = offset.quotientAndRemainder(dividingBy: 2)
            guard let chainId = half.uint64 else {
                throw EthereumCodecError(.outOfRange, field: "chainId", "wider than 64 bits")
            }
            tx.chainId = chainId
            yParity = parity
        }
        let sig = try EthereumSignature(r: r.word, s: s.word, yParity: UInt8(truncatingIfNeeded: yParity))
        return .signed(try SignedEthereumTransaction(transaction: tx, signature: sig))
    }

    static func signatureWord(_ item: RLPItem, _ field: String) throws(EthereumCodecError) -> [UInt8] {
        try item.integer(field).word
    }

    static func decodeTo(_ item: RLPItem) throws(EthereumCodecError) -> EthereumAddress? {
        let b = try item.byteString("to")
        if b.isEmpty { return nil }
        do { return try EthereumAddress(bytes: b) } catch { throw error.within("to") }
    }

    static func decodeAccessList(_ item: RLPItem) throws(EthereumCodecError) -> [AccessListEntry] {
        var out = [AccessListEntry]()
        for (i, entry) in try item.items("accessList").enumerated() {
            let field = "accessList[\(i)]"
            let pair = try entry.items(field)
            guard pair.count == 2 else {
                throw EthereumCodecError(.wrongType, field: field, "an entry is [address, keys]")
            }
            let address: EthereumAddress
            do { address = try EthereumAddress(bytes: try pair[0].byteString(field + ".address")) } catch {
                throw error.within(field + ".address")
            }
            var keys = [[UInt8]]()
            for key in try pair[1].items(field + ".storageKeys") {
                let k = try key.byteString(field + ".storageKeys")
                guard k.count == 32 else {
                    throw EthereumCodecError(.invalidValue, field: field + ".storageKeys", "a storage key is 32 bytes")
                }
                keys.append(k)
            }
            out.append(try AccessListEntry(address: address, storageKeys: keys))
        }
        return out
    }
}

/// A secp256k1 signature as Ethereum carries it: `r`, `s` (32 bytes each, low-S) and yParity 0/1.
package struct EthereumSignature: Sendable, Hashable {
    package let r: [UInt8]
    package let s: [UInt8]
    package let yParity: UInt8

    /// - Throws: `.invalidSignature` for lengths, yParity > 1, zero r or s, or high-S (EIP-2).
    package init(r: [UInt8], s: [UInt8], yParity: UInt8) throws(EthereumCodecError) {
        guard r.count == 32, s.count == 32, yParity <= 1 else {
            throw EthereumCodecError(.invalidSignature, "r and s are 32 bytes, yParity 0 or 1")
        }
        guard r.contains(where: { $0 != 0 }), s.contains(where: { $0 != 0 }) else {
            throw EthereumCodecError(.invalidSignature, "r or s is zero")
        }
        guard EthereumKeyPair.isLowS(s) else { throw EthereumCodecError(.invalidSignature, "s is above n/2 (EIP-2)") }
        self.r = r
        self.s = s
        self.yParity = yParity
    }

    /// From `r ‖ s ‖ v`, v = 0/1 or 27/28.
    package init(bytes65 b: [UInt8]) throws(EthereumCodecError) {
        guard b.count == 65, [0, 1, 27, 28].contains(b[64]) else {
            throw EthereumCodecError(.invalidSignature, "65 bytes r ‖ s ‖ v with v 0, 1, 27 or 28")
        }
        try self.init(r: Array(b[0..<32]), s: Array(b[32..<64]), yParity: b[64] >= 27 ? b[64] - 27 : b[64])
    }

    /// `r ‖ s ‖ yParity`.
    package var bytes: [UInt8] { r + s + [yParity] }
    /// `r ‖ s ‖ (27 + yParity)`: the form `personal_sign` and `eth_signTypedData_v4` return.
    package var messageSignature: [UInt8] { r + s + [27 + yParity] }
}

/// A signed transaction: the transaction, its signature, the broadcast bytes and the tx hash.
package struct SignedEthereumTransaction: Sendable, Hashable {
    package let transaction: EthereumTransaction
    package let signature: EthereumSignature
    /// Legacy: EIP-155 `v = chainId·2 + 35 + yParity` (27/28 without chain id); typed: yParity.
    package let v: UInt256
    /// The bytes for `eth_sendRawTransaction`.
    package let raw: [UInt8]

    init(transaction: EthereumTransaction, signature: EthereumSignature) throws(EthereumCodecError) {
        self.transaction = transaction
        self.signature = signature
        let parity = UInt64(signature.yParity)
        switch transaction.type {
        case .legacy:
            if let chainId = transaction.chainId {
                // chainId < 2^64, so chainId·2 + 36 < 2^66: never overflows 256 bits.
                v = UInt256(chainId).multipliedReportingOverflow(by: 2)?.addingReportingOverflow(35 + parity) ?? .zero
            } else {
                v = UInt256(27 + parity)
            }
            raw = RLP.encode(
                .list(
                    transaction.fieldItems + [
                        .uint(v), .bytes(signature.r.drop { $0 == 0 }.map { $0 }),
                        .bytes(signature.s.drop { $0 == 0 }.map { $0 }),
                    ]))
        case .accessList, .dynamicFee:
            guard transaction.chainId != nil else {
                throw EthereumCodecError(.missingField, field: "chainId", "typed transactions carry a chain id")
            }
            v = UInt256(parity)
            raw =
                [transaction.type.rawValue]
                + RLP.encode(
                    .list(
                        transaction.fieldItems + [
                            .uint(v), .bytes(signature.r.drop { $0 == 0 }.map { $0 }),
                            .bytes(signature.s.drop { $0 == 0 }.map { $0 }),
                        ]))
        }
    }

    /// Keccak-256 of `raw` (the hash nodes and explorers show; not the signing hash).
    package var hash: [UInt8] { Keccak256.hash(raw) }

    /// The sender: the address the signature over the signing hash recovers to.
    /// - Throws: `.invalidSignature` when no key recovers.
    package func recoverSender() throws(EthereumCodecError) -> EthereumAddress {
        do {
            return EthereumAddress(
                uncheckedBytes: try EthereumKeyPair.recoverAddress(
                    signature: signature.bytes, hash: transaction.signingHash))
        } catch {
            throw EthereumCodecError(.invalidSignature, "no public key recovers from this signature")
        }
    }
}
