/// ICON's V-ICON vectors (docs/reference/icon.md §1, §7; `Tests/IconCodecTests/Resources/
/// icon-transactions.json`) that several test targets sign and show: the V-ICON-1 key (its account is
/// ``address1``) and the V-ICON-7 transactions A, B, C with their hashes and signatures.
public enum IconVectors {
    public static let key1 = "38f792b95a5202ab431bfc799f7e1e5c74ec0b9ede5c6142ee7364f2c84d72f6"  // V-ICON-1
    public static let address1 = "hx902ecb51c109183ace539f247b4ea1347fbf23b5"
    /// 2022-01-13 04:34:03 UTC, V-ICON-7's timestamp, as "now".
    public static let now: Int64 = 0x5d56f3231f818

    public static let transactions = [
        IconVector(
            name: "A transfer",
            json:
                #"{"version":"0x3","from":"hx902ecb51c109183ace539f247b4ea1347fbf23b5","to":"hx87a90bfe8ed49e1a25184ce77fa0d9c4b0484d6a","value":"0xde0b6b3a7640000","stepLimit":"0x186a0","timestamp":"0x5d56f3231f818","nid":"0x1","nonce":"0x1"}"#,
            hash: "79ebc52164f2e8e51e805c688c98da7c5c5addd2ebf554b0e39876f417b83602",
            signature: "V76QVTFQX2XMr86fcQrCeKRAk9YBOiJqKP6DCLOlYOY0AEnHjZYgzW++GcAGnx5I8LEuY2We7FZRmuuGFd78gAE="),
        IconVector(
            name: "B token",
            json:
                #"{"version":"0x3","from":"hx902ecb51c109183ace539f247b4ea1347fbf23b5","to":"cxb0776ee37f5b45bfaea8cff1d8232fbb6122ec32","stepLimit":"0x30d40","timestamp":"0x5d56f3231f818","nid":"0x1","nonce":"0x2","dataType":"call","data":{"method":"transfer","params":{"_to":"hxab2d8215eab14bc6bdd8bfb2c8151257032ecd8b","_value":"0x1"}}}"#,
            hash: "14345ed544ee77e7e26a0e084aded112768d18c0fd9fc5539be6cf9eb426c10d",
            signature: "ypH6TpC2PCJia7R2LqPZSfL1IPC5k0l/jUYBsSeis6IoQYmv46J5TrJGflGYKJ76mxCsQZKl6iG2+ta359o41AE="),
        IconVector(
            name: "C escaping",
            json:
                #"{"version":"0x3","from":"hx902ecb51c109183ace539f247b4ea1347fbf23b5","to":"cxb0776ee37f5b45bfaea8cff1d8232fbb6122ec32","stepLimit":"0x30d40","timestamp":"0x5d56f3231f818","nid":"0x1","dataType":"call","data":{"method":"setText","params":{"text":"a.b\\c{d}[e]","list":["x.y",null,{"k":"v"}],"empty":{}}}}"#,
            hash: "f71460bc9d4edc1f9824b3ba96c61e2f1ed3d8f4add707ba231ec563dc565a65",
            signature: "pqFXRwMViDXsud8BHlwUMP4YQSwlFxANdJKn+QiO065F9ajf8ZPwbMD+9GFYbuZAt7B4qKnrv2Kpqm8opR4m6wE="),
    ]
}

/// One V-ICON-7 transaction: its JSON, SHA3-256 hash (hex) and signature (Base64) by ``IconVectors/key1``.
public struct IconVector: Sendable {
    public let name: String
    public let json: String
    public let hash: String
    public let signature: String
}
