import Primitives
import SigningKeys

/// An ICON v3 transaction to be signed, validated so that the bytes Sigil hashes are the bytes an
/// ICON node (goloop) hashes when it checks the signature (docs/reference/icon.md §3).
///
/// Built once from a parsed `JSONValue` (numbers as exact text, duplicate keys refused by the
/// parser); each refusal is an `IconCodecError` naming the rule. The accepted fields are kept as
/// written (they are canonical by then), so `serialized` is the §3.1 serialization of exactly what
/// a display shows. Validation and serialization are linear in the input, `data` nesting is
/// bounded by `maxDataDepth`.
package struct IconTransaction: Sendable, Hashable {
    /// What `dataType` may say. `deploy` is refused: it carries opaque contract code (§3.4).
    package enum DataType: String, Sendable, Hashable, CaseIterable {
        case call
        case message
        case deposit
    }

    /// Deepest nesting of objects and arrays inside `data` (`data` itself is depth 1).
    package static let maxDataDepth = 24
    /// Longest `T_INT` in hex digits (256 bits).
    package static let maxIntegerDigits = 64

    /// The v3 fields a node reads (§3.3); anything else is refused.
    package static let fieldNames: Set<String> = [
        "version", "from", "to", "value", "stepLimit", "timestamp", "nid", "nonce", "dataType", "data",
    ]

    /// Always `0x3`.
    package let version: String
    /// The signer, `hx…`.
    package let from: String
    /// The receiver, `hx…` or a contract `cx…`.
    package let to: String
    /// Loop (10^-18 ICX), when present.
    package let value: String?
    package let stepLimit: String
    /// Microseconds since 1970, `T_INT`.
    package let timestamp: String
    /// The network id (required here, against cross-network replay).
    package let nid: String
    package let nonce: String?
    package let dataType: DataType?
    /// `data` as validated: strings, objects, arrays and null only.
    package let data: JSONValue?
    /// `icx_sendTransaction.` + the serialized fields (§3.1), UTF-8: computed once, when validated.
    package let serialized: [UInt8]

    /// Parses JSON text and validates it. A duplicate key is `duplicateKey`, other parser errors
    /// `invalidJSON`.
    package init(jsonText bytes: some Collection<UInt8>, limits: JSONLimits = .default) throws(IconCodecError) {
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes, limits: limits)
        } catch {
            if error.code == .jsonDuplicateKey {
                throw IconCodecError(.duplicateKey, at: error.offset, "a key appears twice in one object")
            }
            throw IconCodecError(.invalidJSON, at: error.offset, error.reason)
        }
        try self.init(json: value)
    }

    /// Validates a parsed transaction (the `params` of `icx_sendTransaction`, without `signature`).
    package init(json: JSONValue) throws(IconCodecError) {
        guard case .object(let object) = json else {
            throw IconCodecError(.notAnObject, "a transaction is a JSON object, not \(json.kindName)")
        }
        for key in object.keys {
            try IconTransaction.checkKey(key, path: nil)
            if key == "signature" {
                throw IconCodecError(.signaturePresent, field: key, "the transaction to sign already has a signature")
            }
            guard IconTransaction.fieldNames.contains(key) else {
                throw IconCodecError(
                    .unknownField, field: IconCodecError.displayKey(key),
                    "not a v3 transaction field; a node would drop it and the signature would not verify")
            }
        }
        func string(_ name: String, required: Bool) throws(IconCodecError) -> String? {
            guard let v = object[name] else {
                if required { throw IconCodecError(.missingField, field: name, "required") }
                return nil
            }
            switch v {
            case .string(let s): return s
            case .number:
                throw IconCodecError(.numberNotHexString, field: name, "a JSON number; ICON wants a 0x hex string")
            default: throw IconCodecError(.wrongType, field: name, "must be a string, not \(v.kindName)")
            }
        }
        func integer(_ name: String, required: Bool) throws(IconCodecError) -> String? {
            guard let s = try string(name, required: required) else { return nil }
            try IconTransaction.checkInteger(s, field: name)
            return s
        }
        // Fixed order, so that the first refusal does not depend on key order.
        let version = try integer("version", required: true) ?? ""
        guard version == "0x3" else { throw IconCodecError(.unsupportedVersion, field: "version", "only 0x3") }
        let from = try string("from", required: true) ?? ""
        try IconTransaction.checkAddress(from, field: "from", contractAllowed: false)
        let to = try string("to", required: true) ?? ""
        try IconTransaction.checkAddress(to, field: "to", contractAllowed: true)
        self.version = version
        self.from = from
        self.to = to
        self.value = try integer("value", required: false)
        self.stepLimit = try integer("stepLimit", required: true) ?? ""
        self.timestamp = try integer("timestamp", required: true) ?? ""
        self.nid = try integer("nid", required: true) ?? ""
        self.nonce = try integer("nonce", required: false)
        let dataType = try string("dataType", required: false).map { (s: String) throws(IconCodecError) -> DataType in
            guard let t = DataType(rawValue: s) else {
                throw IconCodecError(
                    .unsupportedDataType, field: "dataType",
                    s == "deploy" ? "deploy carries opaque contract code; refused" : "not call, message or deposit")
            }
            return t
        }
        self.dataType = dataType
        switch (dataType, object["data"]) {
        case (nil, nil): self.data = nil
        case (nil, .some): throw IconCodecError(.dataWithoutDataType, field: "data", "data needs a dataType")
        case (.some, nil): throw IconCodecError(.missingData, field: "data", "dataType needs data")
        case (.some(let t), .some(let d)):
            try IconTransaction.checkData(d, path: "data", depth: 1)
            try IconTransaction.checkShape(d, dataType: t)
            self.data = d
        }
        serialized = try IconSerializer.message(
            IconTransaction.fields(
                version: version, from: from, to: to, value: value, stepLimit: stepLimit, timestamp: timestamp,
                nid: nid, nonce: nonce, dataType: dataType, data: data))
    }

    /// The accepted fields as one object (what is hashed and what is sent, before `signature`).
    package var fields: JSONObject {
        IconTransaction.fields(
            version: version, from: from, to: to, value: value, stepLimit: stepLimit, timestamp: timestamp, nid: nid,
            nonce: nonce, dataType: dataType, data: data)
    }

    private static func fields(
        version: String, from: String, to: String, value: String?, stepLimit: String, timestamp: String, nid: String,
        nonce: String?, dataType: DataType?, data: JSONValue?
    ) -> JSONObject {
        var o = JSONObject()
        o["version"] = .string(version)
        o["from"] = .string(from)
        o["to"] = .string(to)
        if let value { o["value"] = .string(value) }
        o["stepLimit"] = .string(stepLimit)
        o["timestamp"] = .string(timestamp)
        o["nid"] = .string(nid)
        if let nonce { o["nonce"] = .string(nonce) }
        if let dataType { o["dataType"] = .string(dataType.rawValue) }
        if let data { o["data"] = data }
        return o
    }

    /// SHA3-256 of `serialized` (§3.2): the 32 bytes that are signed.
    package var hash: [UInt8] { SHA3_256.hash(serialized) }

    /// `0x` + hex of `hash`: the id a node returns for this transaction.
    package var transactionHash: String { Hex.encode(hash) }

    /// The `icx_sendTransaction` params with `signature` (Base64 of `r ‖ s ‖ recid`, §4).
    package func signed(signatureBase64: String) -> JSONValue {
        var o = fields
        o["signature"] = .string(signatureBase64)
        return .object(o)
    }

    // MARK: rules

    /// `T_INT`: `0x0` or `0x` + a non-zero lower-case hex digit + lower-case hex digits (§3.2).
    static func checkInteger(_ s: String, field: String) throws(IconCodecError) {
        let u = Array(s.utf8)
        guard u.count >= 3, u[0] == UInt8(ascii: "0"), u[1] == UInt8(ascii: "x"),
            u[2...].allSatisfy(isLowerHex), u.count == 3 || u[2] != UInt8(ascii: "0")
        else {
            throw IconCodecError(
                .nonCanonicalInteger, field: field, "T_INT must be 0x + lower-case hex without leading zeros")
        }
        guard u.count - 2 <= maxIntegerDigits else {
            throw IconCodecError(.integerTooLarge, field: field, "more than \(maxIntegerDigits) hex digits")
        }
    }

    /// `hx`/`cx` + 40 lower-case hex digits (§3.2, §5).
    static func checkAddress(_ s: String, field: String, contractAllowed: Bool) throws(IconCodecError) {
        let u = Array(s.utf8)
        guard u.count == 42, u[1] == UInt8(ascii: "x"), u[0] == UInt8(ascii: "h") || u[0] == UInt8(ascii: "c"),
            u[2...].allSatisfy(isLowerHex)
        else {
            throw IconCodecError(.invalidAddress, field: field, "an address is hx or cx + 40 lower-case hex digits")
        }
        if !contractAllowed && u[0] == UInt8(ascii: "c") {
            throw IconCodecError(.contractAsSender, field: field, "a contract address cannot sign")
        }
    }

    /// Keys: printable ASCII without `\ . { } [ ]` (§3.1).
    static func checkKey(_ key: String, path: String?) throws(IconCodecError) {
        let shown = path.map { "\($0).\(IconCodecError.displayKey(key))" } ?? IconCodecError.displayKey(key)
        for byte in key.utf8 {
            if byte >= 0x80 { throw IconCodecError(.nonASCIIKey, field: shown, "keys must be ASCII") }
            switch byte {
            case 0..<0x20, 0x7f, UInt8(ascii: "\\"), UInt8(ascii: "."), UInt8(ascii: "{"), UInt8(ascii: "}"),
                UInt8(ascii: "["), UInt8(ascii: "]"):
                throw IconCodecError(
                    .specialCharacterInKey, field: shown, "control character or one of \\ . { } [ ] in a key")
            default: continue
            }
        }
    }

    /// `data`: only strings (without U+0000), objects with valid keys, arrays and null; bounded depth.
    static func checkData(_ value: JSONValue, path: String, depth: Int) throws(IconCodecError) {
        switch value {
        case .string(let s):
            if s.utf8.contains(0) { throw IconCodecError(.nulCharacter, field: path, "U+0000 in a string") }
        case .null: return
        case .number:
            throw IconCodecError(.numberInData, field: path, "numbers are not allowed in data; use 0x hex strings")
        case .bool: throw IconCodecError(.booleanInData, field: path, "booleans are not allowed in data; use strings")
        case .array(let a):
            guard depth <= maxDataDepth else {
                throw IconCodecError(.tooDeep, field: path, "deeper than \(maxDataDepth)")
            }
            for (i, element) in a.enumerated() { try checkData(element, path: "\(path).\(i)", depth: depth + 1) }
        case .object(let o):
            guard depth <= maxDataDepth else {
                throw IconCodecError(.tooDeep, field: path, "deeper than \(maxDataDepth)")
            }
            for (key, element) in o {
                try checkKey(key, path: path)
                try checkData(element, path: "\(path).\(key)", depth: depth + 1)
            }
        }
    }

    /// The shape a node reads for each `dataType` (§3.4): `call` is `{method, params?}` with a
    /// string method and object params; `message` a string; `deposit` `{action, id?, amount?}`.
    static func checkShape(_ data: JSONValue, dataType: DataType) throws(IconCodecError) {
        switch dataType {
        case .message:
            guard case .string = data else {
                throw IconCodecError(.invalidData, field: "data", "message data is a string")
            }
        case .call:
            guard case .object(let o) = data, case .string(let method)? = o["method"], !method.isEmpty,
                Set(o.keys).isSubset(of: ["method", "params"])
            else {
                throw IconCodecError(.invalidData, field: "data", "call data is {method: string, params?: object}")
            }
            if let params = o["params"], params.objectValue == nil {
                throw IconCodecError(.invalidData, field: "data.params", "call params must be an object")
            }
        case .deposit:
            guard case .object(let o) = data, case .string(let action)? = o["action"],
                ["add", "withdraw"].contains(action),
                Set(o.keys).isSubset(of: ["action", "id", "amount"])
            else {
                throw IconCodecError(
                    .invalidData, field: "data", "deposit data is {action: add|withdraw, id?, amount?}")
            }
            for key in ["id", "amount"] where o[key] != nil && o[key]?.stringValue == nil {
                throw IconCodecError(.invalidData, field: "data.\(key)", "must be a string")
            }
        }
    }

    @inline(__always) static func isLowerHex(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66)
    }
}
