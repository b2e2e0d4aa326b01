import Primitives
import SigningKeys

/// EIP-712 typed data as `eth_signTypedData_v4` sends it (docs/reference/ethereum.md §7):
/// `{types, primaryType, domain, message}`, parsed from untrusted JSON and hashed.
///
/// ```
/// digest          = keccak256(0x19 ‖ 0x01 ‖ domainSeparator ‖ hashStruct(primaryType, message))
/// domainSeparator = hashStruct("EIP712Domain", domain)
/// hashStruct(T,v) = keccak256(keccak256(encodeType(T)) ‖ encodeData(T, v))
/// ```
///
/// Strict where MetaMask is lenient (§7.3): integers are JSON numbers, decimal strings or `0x` hex
/// strings, range-checked against `uintN`/`intN`; `bytes` is `0x` hex; `bytesN` exactly N bytes;
/// `address` 20 bytes in any case; `bool` a JSON boolean; a field absent from the message (struct
/// fields included) is an error; message keys not in the type are ignored. `EIP712Domain` is
/// hashed with the field order given, and must be present unless the domain is empty.
///
/// Bounded: at most `maxTypes` types of at most `maxFields` fields, type names and nesting checked
/// at parse time, values nested at most `maxDepth` structs/arrays deep, each value encoded once,
/// type strings computed once per type. A struct that contains itself with no array in between is
/// refused (`cyclicType`: no finite value exists); recursion through arrays is allowed.
package struct TypedData: Sendable {
    /// One member of a struct type.
    package struct Field: Sendable, Hashable {
        package let name: String
        package let type: String
    }

    /// A parsed member type.
    indirect enum FieldType: Sendable, Hashable {
        case bool, address, string, bytes
        case uint(bits: Int)
        case int(bits: Int)
        case fixedBytes(Int)
        case structure(String)
        case array(FieldType, length: Int?)
    }

    package static let maxTypes = 256
    package static let maxFields = 256
    package static let maxDepth = 32
    /// Most bytes of all `encodeType` strings together: each struct type's string repeats every type
    /// it reaches, so a ring of types would make 256 strings of half a megabyte each; real requests
    /// (Permit2, Seaport, Uniswap orders) stay under 4 KiB.
    package static let maxTypeStringBytes = 64 * 1024

    /// Struct types by name, fields in declared order.
    package let types: [String: [Field]]
    package let primaryType: String
    package let domain: JSONObject
    package let message: JSONValue
    let parsedTypes: [String: [(name: String, type: FieldType)]]
    let typeStrings: [String: String]
    /// keccak256 of each type string, computed once (a struct value hashes its type's string by
    /// reference, never again per instance).
    let typeHashes: [String: [UInt8]]

    /// From the JSON value (object) or the JSON string of `eth_signTypedData_v4`'s second param.
    /// - Throws: `.invalidJSON`, `.wrongType`, `.missingField`, `.unknownType`, `.unsupportedType`,
    ///   `.cyclicType`, `.tooLarge`.
    package init(json: JSONValue) throws(EthereumCodecError) {
        var root = json
        if let text = json.stringValue {
            do {
                root = try JSONValue.parse(Array(text.utf8), limits: JSONLimits(maxDepth: 64, maxBytes: 1 << 20))
            } catch {
                throw EthereumCodecError(.invalidJSON, field: "typedData", "not JSON")
            }
        }
        guard let object = root.objectValue else {
            throw EthereumCodecError(.wrongType, field: "typedData", "an object")
        }
        guard let typesObject = object["types"]?.objectValue else {
            throw EthereumCodecError(.missingField, field: "types", "an object of struct types")
        }
        guard let primary = object["primaryType"]?.stringValue else {
            throw EthereumCodecError(.missingField, field: "primaryType", "a type name")
        }
        let domainValue = object["domain"] ?? .object([:])
        guard let domain = domainValue.objectValue else {
            throw EthereumCodecError(.wrongType, field: "domain", "an object")
        }
        guard typesObject.count <= Self.maxTypes else {
            throw EthereumCodecError(.tooLarge, field: "types", "more than \(Self.maxTypes) types")
        }
        var types: [String: [Field]] = [:]
        for (name, value) in typesObject {
            guard Self.isIdentifier(name) else {
                throw EthereumCodecError(.unsupportedType, field: "types", "a type name is an identifier")
            }
            guard let list = value.arrayValue, list.count <= Self.maxFields else {
                throw EthereumCodecError(
                    .wrongType, field: "types.\(name)", "an array of at most \(Self.maxFields) fields")
            }
            var fields = [Field]()
            var seen = Set<String>()
            for (i, entry) in list.enumerated() {
                guard let n = entry["name"]?.stringValue, let t = entry["type"]?.stringValue, Self.isIdentifier(n),
                    seen.insert(n).inserted
                else {
                    throw EthereumCodecError(
                        .wrongType, field: "types.\(name)[\(i)]", "{name, type}, names unique identifiers")
                }
                fields.append(Field(name: n, type: t))
            }
            types[name] = fields
        }
        if types["EIP712Domain"] == nil {
            guard domain.isEmpty else {
                throw EthereumCodecError(
                    .unknownType, field: "types.EIP712Domain", "missing while the domain is not empty")
            }
            types["EIP712Domain"] = []
        }
        var parsed: [String: [(name: String, type: FieldType)]] = [:]
        for (name, fields) in types {
            var list: [(name: String, type: FieldType)] = []
            for f in fields {
                guard let t = Self.parseType(f.type), Self.structNames(t).allSatisfy({ types[$0] != nil }) else {
                    throw EthereumCodecError(
                        .unknownType, field: "types.\(name).\(f.name)", "unknown or malformed type")
                }
                list.append((f.name, t))
            }
            parsed[name] = list
        }
        guard parsed[primary] != nil else {
            throw EthereumCodecError(.unknownType, field: "primaryType", "not one of the types")
        }
        try Self.checkNoDirectCycle(parsed)
        var strings: [String: String] = [:]
        var hashes: [String: [UInt8]] = [:]
        var total = 0
        for name in parsed.keys {
            let string = Self.encodeType(name, parsed, types)
            total += string.utf8.count
            guard total <= Self.maxTypeStringBytes else {
                throw EthereumCodecError(
                    .tooLarge, field: "types", "the type strings exceed \(Self.maxTypeStringBytes) bytes")
            }
            strings[name] = string
            hashes[name] = Keccak256.hash(Array(string.utf8))
        }
        self.types = types
        self.primaryType = primary
        self.domain = domain
        self.message = object["message"] ?? .null
        self.parsedTypes = parsed
        self.typeStrings = strings
        self.typeHashes = hashes
    }

    /// From JSON text. - Throws: as `init(json:)`.
    package init(jsonText: [UInt8]) throws(EthereumCodecError) {
        let value: JSONValue
        do { value = try JSONValue.parse(jsonText, limits: JSONLimits(maxDepth: 64, maxBytes: 1 << 20)) } catch {
            throw EthereumCodecError(.invalidJSON, field: "typedData", "not JSON")
        }
        try self.init(json: value)
    }

    static func isIdentifier(_ s: String) -> Bool {
        let u = Array(s.utf8)
        guard let first = u.first, u.count <= 256 else { return false }
        func letter(_ c: UInt8) -> Bool {
            (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c == 0x5f || c == 0x24
        }
        return letter(first) && u.allSatisfy { letter($0) || ($0 >= 0x30 && $0 <= 0x39) }
    }

    /// Parses `uint256`, `bytes32`, `Person`, `int256[][]`, `string[2]`…; `nil` if malformed.
    static func parseType(_ text: String) -> FieldType? {
        var u = Array(text.utf8)
        guard u.count <= 256 else { return nil }
        var dims: [Int?] = []
        while u.last == UInt8(ascii: "]") {
            guard let open = u.lastIndex(of: UInt8(ascii: "[")) else { return nil }
            let inner = u[(open + 1)..<(u.count - 1)]
            if inner.isEmpty {
                dims.append(nil)
            } else {
                guard inner.first != UInt8(ascii: "0"), inner.count <= 6,
                    inner.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                    let n = Int(String(decoding: inner, as: UTF8.self))
                else { return nil }
                dims.append(n)
            }
            u.removeSubrange(open...)
        }
        guard dims.count <= 8 else { return nil }
        let base = String(decoding: u, as: UTF8.self)
        var t: FieldType
        switch base {
        case "bool": t = .bool
        case "address": t = .address
        case "string": t = .string
        case "bytes": t = .bytes
        default:
            if let bits = Self.width(base, prefix: "uint") {
                t = .uint(bits: bits)
            } else if let bits = Self.width(base, prefix: "int") {
                t = .int(bits: bits)
            } else if base.hasPrefix("bytes"), let n = Int(base.dropFirst(5)), (1...32).contains(n),
                String(n) == base.dropFirst(5)
            {
                t = .fixedBytes(n)
            } else if isIdentifier(base) {
                t = .structure(base)
            } else {
                return nil
            }
        }
        for d in dims.reversed() { t = .array(t, length: d) }
        // dims were collected outermost-last: `T[2][]` → dims [nil, 2] → array(array(T, 2), nil).
        return t
    }

    static func width(_ base: String, prefix: String) -> Int? {
        guard base.hasPrefix(prefix), let n = Int(base.dropFirst(prefix.count)),
            String(n) == base.dropFirst(prefix.count),
            n % 8 == 0, (8...256).contains(n)
        else { return nil }
        return n
    }

    static func structNames(_ t: FieldType) -> [String] {
        switch t {
        case .structure(let n): [n]
        case .array(let e, _): structNames(e)
        default: []
        }
    }

    /// Refuses a struct reachable from itself through struct-typed fields only (no array between).
    static func checkNoDirectCycle(_ types: [String: [(name: String, type: FieldType)]]) throws(EthereumCodecError) {
        var state: [String: Int] = [:]  // 1 visiting, 2 done
        func visit(_ n: String) -> Bool {
            if state[n] == 2 { return true }
            if state[n] == 1 { return false }
            state[n] = 1
            for f in types[n] ?? [] {
                if case .structure(let s) = f.type, !visit(s) { return false }
            }
            state[n] = 2
            return true
        }
        for n in types.keys.sorted() where !visit(n) {
            throw EthereumCodecError(.cyclicType, field: "types.\(n)", "a struct contains itself without an array")
        }
    }

    static func encodeType(
        _ name: String, _ parsed: [String: [(name: String, type: FieldType)]], _ types: [String: [Field]]
    ) -> String {
        var deps = Set<String>()
        var stack = [name]
        while let n = stack.popLast() {
            for f in parsed[n] ?? [] {
                for s in structNames(f.type) where s != name && deps.insert(s).inserted { stack.append(s) }
            }
        }
        let order = [name] + deps.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        return order.map { n in
            n + "(" + (types[n] ?? []).map { "\($0.type) \($0.name)" }.joined(separator: ",") + ")"
        }.joined()
    }

    /// `Name(type name,…)` followed by the referenced struct types sorted by name.
    /// - Throws: `.unknownType`.
    package func encodeType(_ name: String) throws(EthereumCodecError) -> String {
        guard let s = typeStrings[name] else {
            throw EthereumCodecError(.unknownType, field: name, "not one of the types")
        }
        return s
    }

    /// keccak256(encodeType(name)).
    package func typeHash(_ name: String) throws(EthereumCodecError) -> [UInt8] {
        guard let hash = typeHashes[name] else {
            throw EthereumCodecError(.unknownType, field: name, "not one of the types")
        }
        return hash
    }

    /// The concatenated 32-byte words of a struct value's fields (without the type hash).
    package func encodeData(_ name: String, _ value: JSONValue) throws(EthereumCodecError) -> [UInt8] {
        try encodeData(name, value, path: name, depth: 0)
    }

    func encodeData(_ name: String, _ value: JSONValue, path: String, depth: Int) throws(EthereumCodecError) -> [UInt8]
    {
        guard let fields = parsedTypes[name] else {
            throw EthereumCodecError(.unknownType, field: path, "not one of the types")
        }
        guard let object = value.objectValue else {
            throw EthereumCodecError(.wrongType, field: path, "a struct is an object")
        }
        var out = [UInt8]()
        out.reserveCapacity(32 * fields.count)
        for f in fields {
            guard let v = object[f.name], !v.isNull else {
                throw EthereumCodecError(.missingField, field: path + "." + f.name, "absent from the value")
            }
            out += try encodeValue(f.type, v, path: path + "." + f.name, depth: depth)
        }
        return out
    }

    /// hashStruct(name, value).
    package func hashStruct(_ name: String, _ value: JSONValue) throws(EthereumCodecError) -> [UInt8] {
        try hashStruct(name, value, path: name, depth: 0)
    }

    func hashStruct(_ name: String, _ value: JSONValue, path: String, depth: Int) throws(EthereumCodecError) -> [UInt8]
    {
        guard depth < Self.maxDepth else {
            throw EthereumCodecError(.tooDeep, field: path, "nested deeper than \(Self.maxDepth)")
        }
        return Keccak256.hash(try typeHash(name) + encodeData(name, value, path: path, depth: depth + 1))
    }

    func encodeValue(_ type: FieldType, _ v: JSONValue, path: String, depth: Int) throws(EthereumCodecError) -> [UInt8]
    {
        switch type {
        case .bool:
            guard let b = v.boolValue else {
                throw EthereumCodecError(.invalidValue, field: path, "bool is true or false")
            }
            return UInt256(b ? 1 : 0).word
        case .address:
            guard let s = v.stringValue, let b = try? Hex.decode(s, prefix: .required, byteCount: 20) else {
                throw EthereumCodecError(.invalidValue, field: path, "address is 0x + 40 hex digits")
            }
            return [UInt8](repeating: 0, count: 12) + b
        case .string:
            guard let s = v.stringValue else { throw EthereumCodecError(.invalidValue, field: path, "a string") }
            return Keccak256.hash(Array(s.utf8))
        case .bytes:
            guard let s = v.stringValue, let b = try? Hex.decode(s, prefix: .required) else {
                throw EthereumCodecError(.invalidValue, field: path, "bytes are 0x + hex")
            }
            return Keccak256.hash(b)
        case .fixedBytes(let n):
            guard let s = v.stringValue, let b = try? Hex.decode(s, prefix: .required, byteCount: n) else {
                throw EthereumCodecError(.invalidValue, field: path, "bytes\(n) is 0x + \(2 * n) hex digits")
            }
            return b + [UInt8](repeating: 0, count: 32 - n)
        case .uint(let bits):
            let (negative, magnitude) = try Self.integer(v, path: path)
            guard !negative || magnitude.isZero, magnitude.bitLength <= bits else {
                throw EthereumCodecError(.outOfRange, field: path, "not a uint\(bits)")
            }
            return magnitude.word
        case .int(let bits):
            let (negative, magnitude) = try Self.integer(v, path: path)
            // −2^(bits−1) ≤ v < 2^(bits−1)
            let limit = UInt256.power(of: bits - 1)
            guard negative ? magnitude <= limit : magnitude < limit else {
                throw EthereumCodecError(.outOfRange, field: path, "not an int\(bits)")
            }
            return negative ? magnitude.twosComplementNegated.word : magnitude.word
        case .structure(let name):
            return try hashStruct(name, v, path: path, depth: depth + 1)
        case .array(let element, let length):
            guard depth < Self.maxDepth else { throw EthereumCodecError(.tooDeep, field: path, "nested too deep") }
            guard let items = v.arrayValue else { throw EthereumCodecError(.invalidValue, field: path, "an array") }
            if let length, items.count != length {
                throw EthereumCodecError(.invalidValue, field: path, "\(items.count) elements, the type says \(length)")
            }
            var concatenated = [UInt8]()
            concatenated.reserveCapacity(32 * items.count)
            for (i, item) in items.enumerated() {
                concatenated += try encodeValue(element, item, path: path + "[\(i)]", depth: depth + 1)
            }
            return Keccak256.hash(concatenated)
        }
    }

    /// An integer as a JSON number, a decimal string (optional `-`) or a `0x` hex string.
    static func integer(_ v: JSONValue, path: String) throws(EthereumCodecError) -> (negative: Bool, magnitude: UInt256)
    {
        var text: Substring
        if let n = v.numberValue {
            guard n.isInteger else { throw EthereumCodecError(.invalidValue, field: path, "not an integer") }
            text = Substring(n.text)
        } else if let s = v.stringValue {
            text = Substring(s)
        } else {
            throw EthereumCodecError(.invalidValue, field: path, "an integer is a number or a string")
        }
        var negative = false
        if text.hasPrefix("-") {
            negative = true
            text = text.dropFirst()
        }
        let magnitude: UInt256?
        if text.hasPrefix("0x") {
            magnitude = text.count > 2 && text.count <= 66 ? UInt256(hexDigits: text.dropFirst(2)) : nil
        } else {
            magnitude = UInt256(decimal: text)
        }
        guard let magnitude else { throw EthereumCodecError(.invalidValue, field: path, "not an integer in range") }
        return (negative, magnitude)
    }

    /// hashStruct("EIP712Domain", domain), with the field order of `types.EIP712Domain`.
    package func domainSeparator() throws(EthereumCodecError) -> [UInt8] {
        try hashStruct("EIP712Domain", .object(domain), path: "domain", depth: 0)
    }

    /// The hash of the message, or `nil` when `primaryType` is `EIP712Domain`.
    package func messageHash() throws(EthereumCodecError) -> [UInt8]? {
        primaryType == "EIP712Domain" ? nil : try hashStruct(primaryType, message, path: "message", depth: 0)
    }

    /// The 32 bytes that are signed: keccak256(0x19 ‖ 0x01 ‖ domainSeparator ‖ hashStruct(message))
    /// (no message hash when `primaryType` is `EIP712Domain`).
    package func digest() throws(EthereumCodecError) -> [UInt8] {
        Keccak256.hash([0x19, 0x01] + (try domainSeparator()) + (try messageHash() ?? []))
    }

    /// `domain.chainId` as a number, decimal string or hex string (§7.2: to compare with the active
    /// chain), `nil` when absent. - Throws: `.invalidValue`.
    package func domainChainId() throws(EthereumCodecError) -> UInt256? {
        guard let v = domain["chainId"], !v.isNull else { return nil }
        let (negative, magnitude) = try Self.integer(v, path: "domain.chainId")
        guard !negative else { throw EthereumCodecError(.invalidValue, field: "domain.chainId", "negative") }
        return magnitude
    }
}
