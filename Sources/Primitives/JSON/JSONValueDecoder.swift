/// Decodes `Decodable` types from an already parsed ``JSONValue`` (the request body is parsed once;
/// typed parameters are read from that tree, never from the text again). Integers are read exactly
/// from the number's text; floating-point types are refused (nothing Sigil signs or counts is a
/// float). `JSONValue` and `JSONNumber` members are handed over as they are.
package struct JSONValueDecoder: Sendable {
    package init() {}

    /// - Throws: `PrimitivesError.jsonTypeMismatch` naming the path (never the values).
    package func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(PrimitivesError) -> T {
        do {
            return try ValueDecoder(value: value, codingPath: []).decode(type)
        } catch let error as PrimitivesError {
            throw error
        } catch let error as DecodingError {
            throw PrimitivesError(.jsonTypeMismatch, Self.describe(error))
        } catch {
            throw PrimitivesError(.jsonTypeMismatch, "\(type): \(error)")
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            let text = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue.prefix(32))" }.joined()
            return text.isEmpty ? "(top level)" : String(text.prefix(200))
        }
        switch error {
        case .typeMismatch(_, let c): return "\(path(c.codingPath)): \(c.debugDescription)"
        case .valueNotFound(_, let c): return "\(path(c.codingPath)): \(c.debugDescription)"
        case .keyNotFound(let key, let c):
            return "\(path(c.codingPath)): missing field \(key.stringValue.prefix(32))"
        case .dataCorrupted(let c): return "\(path(c.codingPath)): \(c.debugDescription)"
        @unknown default: return "invalid value"
        }
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if type == JSONValue.self, let v = value as? T { return v }
        if type == JSONNumber.self {
            guard case .number(let n) = value, let v = n as? T else { throw mismatch(type, "a number") }
            return v
        }
        return try T(from: self)
    }

    func mismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
        .typeMismatch(
            type, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.kindName)"))
    }

    func container<Key: CodingKey>(keyedBy _: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else { throw mismatch(JSONObject.self, "an object") }
        return KeyedDecodingContainer(Keyed<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch([JSONValue].self, "an array") }
        return Unkeyed(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(decoder: self) }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let object: JSONObject
        let codingPath: [any CodingKey]
        var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

        func child(_ key: Key) throws -> ValueDecoder {
            guard let v = object[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
            }
            return ValueDecoder(value: v, codingPath: codingPath + [key])
        }

        func decodeNil(forKey key: Key) throws -> Bool { (object[key.stringValue] ?? .null) == .null }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decode(type) }
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            guard let v = object[key.stringValue], v != .null else { return nil }
            return try ValueDecoder(value: v, codingPath: codingPath + [key]).decode(type)
        }
        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> { try child(key).container(keyedBy: type) }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try child(key).unkeyedContainer()
        }
        func superDecoder() throws -> any Decoder {
            ValueDecoder(value: .object(object), codingPath: codingPath)
        }
        func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let items: [JSONValue]
        let codingPath: [any CodingKey]
        var currentIndex = 0
        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        init(items: [JSONValue], codingPath: [any CodingKey]) {
            self.items = items
            self.codingPath = codingPath
        }

        mutating func next() throws -> ValueDecoder {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    JSONValue.self, .init(codingPath: codingPath, debugDescription: "array ended"))
            }
            defer { currentIndex += 1 }
            return ValueDecoder(value: items[currentIndex], codingPath: codingPath + [AnyKey(intValue: currentIndex)])
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, items[currentIndex] == .null else { return false }
            currentIndex += 1
            return true
        }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decode(type) }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type
        ) throws -> KeyedDecodingContainer<NestedKey> { try next().container(keyedBy: type) }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try next().unkeyedContainer()
        }
        mutating func superDecoder() throws -> any Decoder { try next() }
    }

    struct Single: SingleValueDecodingContainer {
        let decoder: ValueDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }

        func decodeNil() -> Bool { decoder.value == .null }
        func decode(_: Bool.Type) throws -> Bool {
            guard case .bool(let b) = decoder.value else { throw decoder.mismatch(Bool.self, "a boolean") }
            return b
        }
        func decode(_: String.Type) throws -> String {
            guard case .string(let s) = decoder.value else { throw decoder.mismatch(String.self, "a string") }
            return s
        }
        func decode(_: Double.Type) throws -> Double { throw refusedFloat(Double.self) }
        func decode(_: Float.Type) throws -> Float { throw refusedFloat(Float.self) }
        func decode(_: Int.Type) throws -> Int { try integer() }
        func decode(_: Int8.Type) throws -> Int8 { try integer() }
        func decode(_: Int16.Type) throws -> Int16 { try integer() }
        func decode(_: Int32.Type) throws -> Int32 { try integer() }
        func decode(_: Int64.Type) throws -> Int64 { try integer() }
        func decode(_: UInt.Type) throws -> UInt { try integer() }
        func decode(_: UInt8.Type) throws -> UInt8 { try integer() }
        func decode(_: UInt16.Type) throws -> UInt16 { try integer() }
        func decode(_: UInt32.Type) throws -> UInt32 { try integer() }
        func decode(_: UInt64.Type) throws -> UInt64 { try integer() }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(type) }

        private func integer<T: FixedWidthInteger>() throws -> T {
            guard case .number(let n) = decoder.value else { throw decoder.mismatch(T.self, "an integer") }
            guard let v = n.integer(as: T.self) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath, debugDescription: "not an integer that fits \(T.self)"))
            }
            return v
        }

        private func refusedFloat(_ type: Any.Type) -> DecodingError {
            .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "floating-point values are not read"))
        }
    }
}

extension JSONValue: Decodable {
    /// Only through ``JSONValueDecoder`` (which hands the parsed value over as it is); other decoders
    /// are refused, so no `JSONValue` is ever built by decode-by-trial.
    package init(from decoder: any Decoder) throws {
        guard let own = decoder as? ValueDecoder else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "JSONValue decodes only through JSONValueDecoder"))
        }
        self = own.value
    }
}
