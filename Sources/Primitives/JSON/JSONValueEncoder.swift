/// Encodes `Encodable` types into a ``JSONValue`` (typed results become the reply tree that is then
/// written once). Integers become exact number text; `JSONValue`/`JSONNumber` members are inserted as
/// they are; floating-point values are written in Swift's shortest round-trip form (results only,
/// never a signing input). Keys keep the order the type encodes them in.
package struct JSONValueEncoder: Sendable {
    package init() {}

    /// - Throws: `PrimitivesError.jsonTypeMismatch` if the type encodes nothing or a non-finite float.
    package func encode(_ value: some Encodable) throws(PrimitivesError) -> JSONValue {
        let root = Box()
        do {
            try ValueEncoder(box: root, codingPath: []).encodeValue(value)
        } catch let error as PrimitivesError {
            throw error
        } catch {
            throw PrimitivesError(.jsonTypeMismatch, "\(type(of: value)) did not encode: \(error)")
        }
        guard let result = root.value else {
            throw PrimitivesError(.jsonTypeMismatch, "\(type(of: value)) encoded nothing")
        }
        return result
    }
}

/// A mutable slot for a value being built (containers write into their parent's slot when done).
private class Box {
    var value: JSONValue?
    var object: JSONObject?
    var array: [JSONValue]?

    /// The finished value of this slot.
    var resolved: JSONValue {
        if let object { return .object(object) }
        if let array { return .array(array.map { $0 }) }
        return value ?? .null
    }
}

private struct ValueEncoder: Encoder {
    let box: Box
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func encodeValue(_ value: some Encodable) throws {
        if let v = value as? JSONValue {
            box.value = v
        } else if let n = value as? JSONNumber {
            box.value = .number(n)
        } else {
            try value.encode(to: self)
            if box.object != nil || box.array != nil { box.value = box.resolved }
        }
    }

    func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
        if box.object == nil { box.object = JSONObject() }
        return KeyedEncodingContainer(Keyed<Key>(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if box.array == nil { box.array = [] }
        return Unkeyed(box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(box: box, codingPath: codingPath) }

    static func child(_ value: some Encodable, path: [any CodingKey]) throws -> JSONValue {
        let box = Box()
        try ValueEncoder(box: box, codingPath: path).encodeValue(value)
        return box.value ?? box.resolved
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let box: Box
        let codingPath: [any CodingKey]

        func set(_ v: JSONValue, _ key: Key) { box.object?[key.stringValue] = v }
        mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            set(try ValueEncoder.child(value, path: codingPath + [key]), key)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            let child = NestedBox(parent: box, key: key.stringValue)
            return ValueEncoder(box: child, codingPath: codingPath + [key]).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = NestedBox(parent: box, key: key.stringValue)
            return ValueEncoder(box: child, codingPath: codingPath + [key]).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder {
            ValueEncoder(box: NestedBox(parent: box, key: "super"), codingPath: codingPath)
        }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            ValueEncoder(box: NestedBox(parent: box, key: key.stringValue), codingPath: codingPath + [key])
        }
        // Optionals encodeIfPresent: nil values are left out (as JSONEncoder does).
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let box: Box
        let codingPath: [any CodingKey]
        var count: Int { box.array?.count ?? 0 }

        mutating func encodeNil() throws { box.array?.append(.null) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            box.array?.append(try ValueEncoder.child(value, path: codingPath))
        }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type
        ) -> KeyedEncodingContainer<NestedKey> {
            let child = NestedBox(parent: box, index: count)
            box.array?.append(.null)
            return ValueEncoder(box: child, codingPath: codingPath).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = NestedBox(parent: box, index: count)
            box.array?.append(.null)
            return ValueEncoder(box: child, codingPath: codingPath).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder {
            let child = NestedBox(parent: box, index: count)
            box.array?.append(.null)
            return ValueEncoder(box: child, codingPath: codingPath)
        }
    }

    struct Single: SingleValueEncodingContainer {
        let box: Box
        let codingPath: [any CodingKey]

        mutating func encodeNil() throws { box.value = .null }
        mutating func encode(_ value: Bool) throws { box.value = .bool(value) }
        mutating func encode(_ value: String) throws { box.value = .string(value) }
        mutating func encode(_ value: Double) throws {
            guard value.isFinite, let n = JSONNumber("\(value)") else {
                throw PrimitivesError(.jsonTypeMismatch, "non-finite number")
            }
            box.value = .number(n)
        }
        mutating func encode(_ value: Float) throws { try encode(Double(value)) }
        mutating func encode(_ value: Int) throws { box.value = .integer(value) }
        mutating func encode(_ value: Int8) throws { box.value = .integer(value) }
        mutating func encode(_ value: Int16) throws { box.value = .integer(value) }
        mutating func encode(_ value: Int32) throws { box.value = .integer(value) }
        mutating func encode(_ value: Int64) throws { box.value = .integer(value) }
        mutating func encode(_ value: UInt) throws { box.value = .integer(value) }
        mutating func encode(_ value: UInt8) throws { box.value = .integer(value) }
        mutating func encode(_ value: UInt16) throws { box.value = .integer(value) }
        mutating func encode(_ value: UInt32) throws { box.value = .integer(value) }
        mutating func encode(_ value: UInt64) throws { box.value = .integer(value) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            box.value = try ValueEncoder.child(value, path: codingPath)
        }
    }
}

/// A slot inside a parent container: writes propagate to the parent as they happen.
private final class NestedBox: Box {
    private let parent: Box
    private let key: String?
    private let index: Int?

    init(parent: Box, key: String) {
        self.parent = parent
        self.key = key
        index = nil
    }

    init(parent: Box, index: Int) {
        self.parent = parent
        key = nil
        self.index = index
    }

    override var object: JSONObject? { didSet { publish() } }
    override var array: [JSONValue]? { didSet { publish() } }
    override var value: JSONValue? { didSet { publish() } }

    private func publish() {
        let v = resolved
        if let key { parent.object?[key] = v }
        if let index, parent.array.map({ index < $0.count }) == true { parent.array?[index] = v }
    }
}

extension JSONValue: Encodable {
    /// Inserts the value as it is when encoded through ``JSONValueEncoder``; through other encoders,
    /// the plain JSON shape.
    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer()
            try c.encode(b)
        case .number(let n):
            var c = encoder.singleValueContainer()
            if let i = n.integer(as: Int64.self) { try c.encode(i) } else { try c.encode(n.text) }
        case .string(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case .array(let a):
            var c = encoder.unkeyedContainer()
            for item in a { try c.encode(item) }
        case .object(let o):
            var c = encoder.container(keyedBy: DynamicKey.self)
            for (k, v) in o { try c.encode(v, forKey: DynamicKey(k)) }
        }
    }
}

private struct DynamicKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ s: String) { stringValue = s }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
