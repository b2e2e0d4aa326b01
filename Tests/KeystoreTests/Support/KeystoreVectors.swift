import Foundation
import Primitives
import Testing

@testable import Keystore

/// One entry of Resources/keystore-json.json (copied from the project's vectors; see Resources/README.md).
struct KeystoreVector: Sendable, CustomTestStringConvertible {
    let id: String
    let json: Data
    let password: String?
    let expectError: String?
    let encrypted: Bool
    let salt: [UInt8]?
    let nonce: [UInt8]?
    let scryptKey: [UInt8]?
    let scrypt: ScryptParameters?
    let decryptedPkcs8: [UInt8]?
    let secretKey: [UInt8]?
    let publicKey: [UInt8]?
    let address42: String?
    let keyType: String?

    var testDescription: String { id }

    /// Every vector, in file order.
    static let all: [KeystoreVector] = {
        guard let url = Bundle.module.url(forResource: "Resources/keystore-json", withExtension: "json"),
            let data = try? Data(contentsOf: url),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let vectors = root["vectors"] as? [[String: Any]]
        else { return [] }
        var byId: [String: [String: Any]] = [:]
        for v in vectors { if let id = v["id"] as? String { byId[id] = v } }
        return vectors.compactMap { v in
            guard let id = v["id"] as? String else { return nil }
            var jsonObject = v["json"]
            if jsonObject == nil, let ref = v["json_ref"] as? String { jsonObject = byId[ref]?["json"] }
            guard let jsonObject, let json = try? JSONSerialization.data(withJSONObject: jsonObject) else { return nil }
            let scrypt = (v["scrypt"] as? [String: Any]).flatMap { s -> ScryptParameters? in
                guard let n = s["N"] as? Int, let p = s["p"] as? Int, let r = s["r"] as? Int else { return nil }
                return ScryptParameters(n: UInt32(n), p: UInt32(p), r: UInt32(r))
            }
            let content = ((jsonObject as? [String: Any])?["encoding"] as? [String: Any])?["content"] as? [String]
            return KeystoreVector(
                id: id, json: json, password: v["password"] as? String, expectError: v["expect_error"] as? String,
                encrypted: v["encrypted"] as? Bool ?? true, salt: hex(v["salt"]), nonce: hex(v["nonce"]),
                scryptKey: hex(v["scrypt_key"]), scrypt: scrypt, decryptedPkcs8: hex(v["decrypted_pkcs8"]),
                secretKey: hex(v["secret_key"]), publicKey: hex(v["public_key"]), address42: v["address_42"] as? String,
                keyType: content.flatMap { $0.count > 1 ? $0[1] : nil })
        }
    }()

    static var valid: [KeystoreVector] { all.filter { $0.expectError == nil } }
    static var encryptedValid: [KeystoreVector] { valid.filter { $0.encrypted } }
    static var failing: [KeystoreVector] { all.filter { $0.expectError != nil } }

    private static func hex(_ value: Any?) -> [UInt8]? {
        (value as? String).flatMap { try? Hex.decode($0, prefix: .optional) }
    }
}
