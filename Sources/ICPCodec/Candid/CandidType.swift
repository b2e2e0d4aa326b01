/// Candid types as a message's type table declares them (Candid specification, "Binary format").
package enum CandidPrimitive: Int, Sendable, Hashable {
    case null = -1
    case bool = -2
    case nat = -3
    case int = -4
    case nat8 = -5
    case nat16 = -6
    case nat32 = -7
    case nat64 = -8
    case int8 = -9
    case int16 = -10
    case int32 = -11
    case int64 = -12
    case float32 = -13
    case float64 = -14
    case text = -15
    case reserved = -16
    case empty = -17
    case principal = -24
}

/// A reference to a type: a primitive or an entry of the message's type table.
package enum CandidTypeRef: Sendable, Hashable {
    case primitive(CandidPrimitive)
    case table(Int)
}

/// A type-table entry (a constructed type).
package enum CandidTypeEntry: Sendable, Hashable {
    case opt(CandidTypeRef)
    case vec(CandidTypeRef)
    /// Fields by id (the hash of the name, or the position for tuples), strictly increasing.
    case record([CandidField])
    case variant([CandidField])
    case function(arguments: [CandidTypeRef], results: [CandidTypeRef], annotations: [UInt8])
    case service([CandidMethod])
}

package struct CandidField: Sendable, Hashable {
    package let id: UInt32
    package let type: CandidTypeRef
}

package struct CandidMethod: Sendable, Hashable {
    package let name: String
    package let type: CandidTypeRef
}

/// Candid's field id of a name: `fold(0, h·223 + byte) mod 2^32` over the UTF-8 bytes.
package func candidFieldId(_ name: String) -> UInt32 {
    name.utf8.reduce(UInt32(0)) { $0 &* 223 &+ UInt32($1) }
}
