/// A JSON object: unique keys in the order they were written, with constant-time lookup. Equality
/// ignores order (RFC 8259 objects are unordered); writing keeps it unless sorted keys are asked for.
package struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// Keys in insertion order.
    package private(set) var keys: [String] = []
    private var storage: [String: JSONValue] = [:]

    package init() {}

    /// An object from a dictionary; keys in sorted order (a dictionary has none of its own).
    package init(_ dictionary: [String: JSONValue]) {
        keys = dictionary.keys.sorted()
        storage = dictionary
    }

    /// An object from key/value pairs in this order; a later duplicate key replaces the earlier value.
    package init(_ pairs: some Sequence<(String, JSONValue)>) {
        for (key, value) in pairs { self[key] = value }
    }

    /// Later duplicates replace earlier ones (literals are written by the program, not parsed).
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        reserveCapacity(elements.count)
        for (key, value) in elements { self[key] = value }
    }

    /// Room for `count` members without growing.
    mutating func reserveCapacity(_ count: Int) {
        storage.reserveCapacity(count)
        keys.reserveCapacity(count)
    }

    package var count: Int { keys.count }
    package var isEmpty: Bool { keys.isEmpty }

    /// The member `key`; setting `nil` removes it, setting a new key appends it.
    package subscript(key: String) -> JSONValue? {
        get { storage[key] }
        set {
            if let newValue {
                if storage.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if storage.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    /// The position of the first member whose key was seen before.
    struct DuplicateKey: Error {
        let index: Int
    }

    /// An object of `members` in their order, built at its final size (one hash per key), or the
    /// index of the first member that repeats an earlier key.
    static func uniqueMembers(_ members: [(key: String, value: JSONValue)]) -> Result<JSONObject, DuplicateKey> {
        var object = JSONObject()
        object.reserveCapacity(members.count)
        for (index, member) in members.enumerated() {
            guard object.storage.updateValue(member.value, forKey: member.key) == nil else {
                return .failure(DuplicateKey(index: index))
            }
            object.keys.append(member.key)
        }
        return .success(object)
    }

    /// The members as a dictionary.
    package var dictionary: [String: JSONValue] { storage }

    package func makeIterator() -> some IteratorProtocol<(key: String, value: JSONValue)> {
        var index = 0
        let keys = keys
        let storage = storage
        return AnyIterator { () -> (key: String, value: JSONValue)? in
            guard index < keys.count, let value = storage[keys[index]] else { return nil }
            defer { index += 1 }
            return (keys[index], value)
        }
    }

    package static func == (a: JSONObject, b: JSONObject) -> Bool { a.storage == b.storage }
    package func hash(into h: inout Hasher) { h.combine(storage) }
}
