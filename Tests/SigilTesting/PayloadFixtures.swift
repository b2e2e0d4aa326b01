import Foundation

/// Hand-written `SignerPayloadJSON` payloads for tests beyond the vector files (PolkadotCodecTests,
/// SignerCoreTests).
public enum PayloadFixtures {
    /// Vector A (Polkadot relay list, mode 0, System.remark(b"hello")).
    public static let polkadotA = """
        {"address":"15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5","assetId":null,
        "blockHash":"0x1111111111111111111111111111111111111111111111111111111111111111","blockNumber":"0x014fb1fb",
        "era":"0xb503","genesisHash":"0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3",
        "metadataHash":null,"method":"0x00001468656c6c6f","mode":0,"nonce":"0x00000007",
        "signedExtensions":["AuthorizeCall","CheckNonZeroSender","CheckSpecVersion","CheckTxVersion","CheckGenesis",
        "CheckMortality","CheckNonce","CheckWeight","ChargeTransactionPayment","PrevalidateAttests","CheckMetadataHash"],
        "specVersion":"0x001e8480","tip":"0x00000000000000000000000000000000","transactionVersion":"0x0000001a",
        "version":4,"withSignedTransaction":false}
        """

    /// `polkadotA` with one field replaced (the value is raw JSON).
    public static func polkadotA(replacing key: String, with json: String) -> [UInt8] {
        var text = polkadotA
        guard let range = text.range(of: "\"\(key)\":") else { return Array(text.utf8) }
        let rest = text[range.upperBound...]
        var depth = 0
        var inString = false
        var end = rest.startIndex
        for i in rest.indices {
            let c = rest[i]
            if c == "\"" { inString.toggle() }
            if !inString {
                if c == "[" || c == "{" { depth += 1 }
                if c == "]" || c == "}" { depth -= 1 }
                if (c == "," && depth == 0) || depth < 0 {
                    end = i
                    break
                }
            }
        }
        text.replaceSubrange(range.upperBound..<end, with: json)
        return Array(text.utf8)
    }
}
