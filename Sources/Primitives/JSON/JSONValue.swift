/// The project's one JSON value: what every protocol parses from a request body, a keystore file or a
/// configuration, and what every reply is written from.
///
/// - Numbers keep their exact text (``JSONNumber``): a `tip` of `9007199254740993` stays that number.
/// - Objects keep key order and refuse duplicate keys (``JSONObject``).
/// - Parsing (``parse(_:limits:)``) is one linear pass over the bytes with bounded nesting; it refuses
///   invalid UTF-8, unpaired surrogate escapes, duplicate keys and trailing data with a typed
///   ``PrimitivesError`` that never echoes the input.
///
/// Not `indirect`: strings, numbers, arrays and objects already keep their contents on the heap, so
/// a box per value would only add an allocation (and a release) for every value parsed.
package enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// Parses untrusted JSON text.
    package static func parse(
        _ bytes: some Collection<UInt8>, limits: JSONLimits = .default
    ) throws(PrimitivesError) -> JSONValue {
        var parser = JSONParser(limits: limits)
        return try parser.parseDocument(bytes)
    }

    /// Parses untrusted JSON text from a string.
    package static func parse(_ text: String, limits: JSONLimits = .default) throws(PrimitivesError) -> JSONValue {
        try parse(Array(text.utf8), limits: limits)
    }

    /// The member `key` of an object, or `nil`.
    package subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    /// The string, if this is one.
    package var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The boolean, if this is one.
    package var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The number, if this is one.
    package var numberValue: JSONNumber? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// The array, if this is one.
    package var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The object, if this is one.
    package var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// An integer of type `T` when this is an integer number that fits.
    package func integer<T: FixedWidthInteger>(as type: T.Type = T.self) -> T? { numberValue?.integer(as: type) }

    /// This object with `key` set to `value` (a non-object is returned unchanged).
    package func adding(_ key: String, _ value: JSONValue) -> JSONValue {
        guard case .object(var object) = self else { return self }
        object[key] = value
        return .object(object)
    }

    /// Whether this is `null`.
    package var isNull: Bool { self == .null }

    /// A short name of the value's kind, for error messages (never the value).
    package var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral, ExpressibleByIntegerLiteral, ExpressibleByNilLiteral
{
    package init(stringLiteral value: String) { self = .string(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        var object = JSONObject()
        object.reserveCapacity(elements.count)
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
    package init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    package init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    /// A number value from an integer.
    package static func integer(_ value: some BinaryInteger) -> JSONValue { .number(JSONNumber(value)) }

    /// An object value from a dictionary (keys sorted).
    package static func object(_ dictionary: [String: JSONValue]) -> JSONValue { .object(JSONObject(dictionary)) }
}

/// Bounds for parsing untrusted JSON.
package struct JSONLimits: Sendable, Hashable {
    /// Deepest nesting of arrays and objects (the document itself at depth 1).
    package var maxDepth: Int
    /// Most bytes accepted.
    package var maxBytes: Int

    package init(maxDepth: Int = 64, maxBytes: Int = 16 << 20) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
    }

    /// 64 levels, 16 MiB: every protocol Sigil speaks nests far less.
    package static let `default` = JSONLimits()
}
