/// A JSON object: unique keys in the order they were written, with constant-time lookup. Equality
/// ignores order (RFC 8259 objects are unordered); writing keeps it unless sorted keys are asked for.
///
/// The members are kept in one array in their order, with a table from key to position: iterating
/// walks the array (no lookup per member), and a parsed object is built from the parser's members.
package struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One member (a struct, not a tuple: arrays of it are copied and freed without generic witnesses).
    struct Member: Sendable {
        let key: String
        var value: JSONValue
    }

    /// The members in insertion order.
    private var members: [Member] = []
    /// Each key's index in `members`.
    private var positions: [String: Int] = [:]

    package init() {}

    /// An object from a dictionary; keys in sorted order (a dictionary has none of its own).
    package init(_ dictionary: [String: JSONValue]) {
        reserveCapacity(dictionary.count)
        for (key, value) in dictionary.sorted(by: { $0.key < $1.key }) { self[key] = value }
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
        positions.reserveCapacity(count)
        members.reserveCapacity(count)
    }

    /// Keys in insertion order.
    package var keys: [String] { members.map(\.key) }

    package var count: Int { members.count }
    package var isEmpty: Bool { members.isEmpty }

    /// The member `key`; setting `nil` removes it, setting a new key appends it.
    package subscript(key: String) -> JSONValue? {
        get { positions[key].map { members[$0].value } }
        set {
            if let newValue {
                if let index = positions[key] {
                    members[index].value = newValue
                } else {
                    positions[key] = members.count
                    members.append(Member(key: key, value: newValue))
                }
            } else if let index = positions.removeValue(forKey: key) {
                members.remove(at: index)
                for later in index..<members.count { positions[members[later].key] = later }
            }
        }
    }

    /// The position of the first member whose key was seen before.
    struct DuplicateKey: Error {
        let index: Int
    }

    /// An object of `members` in their order, built at its final size (one hash per key), or the
    /// index (counted from the slice's start) of the first member that repeats an earlier key.
    static func uniqueMembers(_ members: ArraySlice<Member>) -> Result<JSONObject, DuplicateKey> {
        var object = JSONObject()
        object.positions.reserveCapacity(members.count)
        for (offset, member) in members.enumerated() {
            guard object.positions.updateValue(offset, forKey: member.key) == nil else {
                return .failure(DuplicateKey(index: offset))
            }
        }
        object.members = Array(members)
        return .success(object)
    }

    /// The members as a dictionary.
    package var dictionary: [String: JSONValue] {
        Dictionary(uniqueKeysWithValues: members.lazy.map { ($0.key, $0.value) })
    }

    /// The members in their order, read straight from the array.
    package struct Iterator: IteratorProtocol {
        private var members: IndexingIterator<[Member]>

        fileprivate init(_ members: [Member]) { self.members = members.makeIterator() }

        package mutating func next() -> (key: String, value: JSONValue)? {
            members.next().map { ($0.key, $0.value) }
        }
    }

    package func makeIterator() -> Iterator { Iterator(members) }

    package static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.count == b.count && a.members.allSatisfy { b[$0.key] == $0.value }
    }

    /// Independent of member order, as equality is.
    package func hash(into h: inout Hasher) {
        var combined = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member.key)
            memberHasher.combine(member.value)
            combined ^= memberHasher.finalize()
        }
        h.combine(members.count)
        h.combine(combined)
    }
}
