/// The project's one JSON value: what every protocol parses from a request body, a keystore file or a
/// configuration, and what every reply is written from.
///
/// - Numbers keep their exact text (``JSONNumber``): a `tip` of `9007199254740993` stays that number.
/// - Objects keep key order and refuse duplicate keys (``JSONObject``).
/// - Parsing (``parse(_:limits:)``) is one linear pass over the bytes with bounded nesting; it refuses
///   invalid UTF-8, unpaired surrogate escapes, duplicate keys and trailing data with a typed
///   ``PrimitivesError`` that never echoes the input.
public indirect enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// Parses untrusted JSON text.
    public static func parse(
        _ bytes: some Collection<UInt8>, limits: JSONLimits = .default
    ) throws(PrimitivesError) -> JSONValue {
        var parser = JSONParser(limits: limits)
        return try parser.parseDocument(bytes)
    }

    /// Parses untrusted JSON text from a string.
    public static func parse(_ text: String, limits: JSONLimits = .default) throws(PrimitivesError) -> JSONValue {
        try parse(Array(text.utf8), limits: limits)
    }

    /// The member `key` of an object, or `nil`.
    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    /// The string, if this is one.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The boolean, if this is one.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The number, if this is one.
    public var numberValue: JSONNumber? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// The array, if this is one.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The object, if this is one.
    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// An integer of type `T` when this is an integer number that fits.
    public func integer<T: FixedWidthInteger>(as type: T.Type = T.self) -> T? { numberValue?.integer(as: type) }

    /// This object with `key` set to `value` (a non-object is returned unchanged).
    public func adding(_ key: String, _ value: JSONValue) -> JSONValue {
        guard case .object(var object) = self else { return self }
        object[key] = value
        return .object(object)
    }

    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    /// A short name of the value's kind, for error messages (never the value).
    public var kindName: String {
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
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var object = JSONObject()
        object.reserveCapacity(elements.count)
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    /// A number value from an integer.
    public static func integer(_ value: some BinaryInteger) -> JSONValue { .number(JSONNumber(value)) }

    /// An object value from a dictionary (keys sorted).
    public static func object(_ dictionary: [String: JSONValue]) -> JSONValue { .object(JSONObject(dictionary)) }
}

/// Bounds for parsing untrusted JSON.
public struct JSONLimits: Sendable, Hashable {
    /// Deepest nesting of arrays and objects (the document itself at depth 1).
    public var maxDepth: Int
    /// Most bytes accepted.
    public var maxBytes: Int

    public init(maxDepth: Int = 64, maxBytes: Int = 16 << 20) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
    }

    /// 64 levels, 16 MiB: every protocol Sigil speaks nests far less.
    public static let `default` = JSONLimits()
}
