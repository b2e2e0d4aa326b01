import Primitives
import SigningKeys
import Testing

@testable import EthereumCodec

/// The three transaction types (docs/reference/ethereum.md §8.2–§8.3): EIP-155's published example
/// and the eth-account/ethers vectors, byte for byte.
@Suite struct TransactionVectorTests {
    static func transaction(_ f: JSONValue) throws -> EthereumTransaction {
        func u256(_ k: String) throws -> UInt256 {
            guard let t = f[k]?.vectorInteger else { return .zero }
            return try #require(UInt256(decimal: t), "\(k)")
        }
        func u64(_ k: String) throws -> UInt64 { try #require(u256(k).uint64) }
        let type = EthereumTransactionType(rawValue: UInt8(try u64("type"))) ?? .legacy
        var list = [AccessListEntry]()
        for e in f["accessList"]?.arrayValue ?? [] {
            list.append(
                try AccessListEntry(
                    address: EthereumAddress(try #require(e["address"]?.stringValue)),
                    storageKeys: (e["storageKeys"]?.arrayValue ?? []).map { try Vectors.hex($0) }))
        }
        return EthereumTransaction(
            type: type, chainId: try u64("chainId"), nonce: try u64("nonce"), gasPrice: try u256("gasPrice"),
            maxPriorityFeePerGas: try u256("maxPriorityFeePerGas"), maxFeePerGas: try u256("maxFeePerGas"),
            gas: try u64("gas"), to: try f["to"]?.stringValue.flatMap { $0.isEmpty ? nil : try EthereumAddress($0) },
            value: try u256("value"),
            data: try Vectors.hex(f["data"]), accessList: list)
    }

    @Test(arguments: Vectors.ids(kind: "transaction"))
    func vector(_ id: String) throws {
        let v = try Vectors.vector(id)
        let tx = try Self.transaction(try #require(v["fields"]))
        #expect(tx.signingPayload == (try Vectors.hex(v["signing_preimage"])), "\(id)")
        #expect(tx.signingHash == (try Vectors.hex(v["signing_hash"])), "\(id)")
        let key: EthereumKeyPair
        if let secret = v["private_key"]?.stringValue {
            key = try EthereumKeyPair(seed: SecretBytes(Hex.decode(secret, prefix: .required)))
        } else {
            key = try EthereumKeyPair.devAccount(index: 0)
            #expect(key.address == v["signer"]?.stringValue)
        }
        let signed = try tx.sign(with: key)
        let raw = try Vectors.hex(v["raw"])
        #expect(signed.raw == raw, "\(id)")
        #expect(signed.hash == (try Vectors.hex(v["tx_hash"])), "\(id)")
        #expect(signed.signature.r == (try Vectors.hex(v["signature"]?["r"])))
        #expect(signed.signature.s == (try Vectors.hex(v["signature"]?["s"])))
        if let expectedV = v["signature"]?["v"]?.vectorInteger { #expect(signed.v.description == expectedV) }
        if tx.type != .legacy, let parity = v["signature"]?["y_parity"]?.vectorInteger {
            #expect(signed.v.description == parity)
        }
        // Decoding the broadcast form gives back the transaction and the signer.
        guard case .signed(let decoded) = try EthereumTransaction.decode(raw) else {
            Issue.record("\(id) did not decode as signed")
            return
        }
        #expect(decoded == signed)
        #expect(try decoded.recoverSender().bytes == key.accountId)
        if let sender = v["sender"]?.stringValue { #expect(try decoded.recoverSender().checksummed == sender) }
        // The unsigned form (the signing payload) decodes to the same transaction.
        #expect(try EthereumTransaction.decode(tx.signingPayload) == .unsigned(tx))
        // The eth_sendTransaction form parses to the same transaction.
        if let params = v["eth_sendTransaction_params"]?.arrayValue?.first {
            let request = try EthereumTransactionRequest(json: params)
            #expect(request.from.bytes == key.accountId)
            #expect(try request.transaction(chainId: try #require(tx.chainId)) == tx, "\(id)")
        }
    }

    static let badRequests: [(String, EthereumCodecError.Code, String)] = [
        (#"{"to":"0x70997970c51812dc3a010c7d01b50e0d17dc79c8"}"#, .missingField, "from"),
        (#"{"from":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","value":"0x01"}"#, .leadingZeros, "value"),
        (#"{"from":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","value":"0x"}"#, .leadingZeros, "value"),
        (#"{"from":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","value":"12"}"#, .leadingZeros, "value"),
        (#"{"from":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","value":12}"#, .wrongType, "value"),
        (#"{"from":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","value":"0xzz"}"#, .invalidHex, "value"),
        (#"{"from":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","gas":"0x10000000000000000"}"#, .outOfRange, "gas"),
        (#"{"from":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","data":"0xabc"}"#, .invalidHex, "data"),
        (
            #"{"from":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","data":"0xab","input":"0xcd"}"#, .conflictingFields,
            "input"
        ),
        (
            #"{"from":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","gas":"0x1","gasLimit":"0x2"}"#, .conflictingFields,
            "gasLimit"
        ),
        (
            #"{"from":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","gasPrice":"0x1","maxFeePerGas":"0x2"}"#,
            .conflictingFields, "gasPrice"
        ),
        (
            #"{"from":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","type":"0x0","maxFeePerGas":"0x2"}"#,
            .conflictingFields, "type"
        ),
        (#"{"from":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","type":"0x3"}"#, .unsupportedType, "type"),
        (
            #"{"from":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","maxFeePerGas":"0x1","maxPriorityFeePerGas":"0x2"}"#,
            .invalidValue, "maxPriorityFeePerGas"
        ),
        (#"{"from":"0xF39fd6e51aad88f6f4ce6ab8827279cfffb92266"}"#, .badChecksum, "from"),
        (
            #"{"from":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","authorizationList":[]}"#, .unknownField,
            "authorizationList"
        ),
        (
            #"{"from":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","accessList":[{"address":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","storageKeys":["0x01"]}]}"#,
            .invalidHex, "accessList[0].storageKeys"
        ),
        (#"[]"#, .wrongType, "params[0]"),
    ]

    @Test(arguments: TransactionVectorTests.badRequests.indices)
    func badRequestsAreRefusedByField(_ i: Int) throws {
        let (text, code, field) = TransactionVectorTests.badRequests[i]
        do {
            _ = try EthereumTransactionRequest(json: try JSONValue.parse(text))
            Issue.record("accepted \(text)")
        } catch let error as EthereumCodecError {
            #expect(error.code == code, "\(text)")
            #expect(error.field == field, "\(text)")
        }
    }

    @Test func incompleteRequestsWaitForFilling() throws {
        let text =
            #"{"from":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","to":"0x70997970c51812dc3a010c7d01b50e0d17dc79c8","gas":"0x5208","chainId":"0x1"}"#
        let request = try EthereumTransactionRequest(json: try JSONValue.parse(text))
        #expect(request.type == .dynamicFee)
        #expect(throws: EthereumCodecError(.chainMismatch, "")) { try request.transaction(chainId: 1337) }
        #expect(throws: EthereumCodecError(.missingField, "")) { try request.transaction(chainId: 1) }
    }

    @Test func tamperedRawTransactionsAreRefusedOrRecoverAnotherSender() throws {
        let v = try Vectors.vector("tx-eip1559-acct0")
        let raw = try Vectors.hex(v["raw"])
        // Every truncation is refused.
        for n in 0..<raw.count {
            #expect(throws: EthereumCodecError.self) { try EthereumTransaction.decode(Array(raw.prefix(n))) }
        }
        #expect(throws: EthereumCodecError(.trailingBytes, "")) { try EthereumTransaction.decode(raw + [0]) }
        #expect(throws: EthereumCodecError(.unsupportedType, "")) {
            try EthereumTransaction.decode([0x04] + raw.dropFirst())
        }
    }
}
