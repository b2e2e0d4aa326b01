/// Answers "does this type encode to zero bytes?" for a registry (e.g. `()`, `PhantomData`,
/// an empty struct). Used to accept zero-sized signed extensions and to bound loops over
/// zero-sized elements. Cycles count as not zero-sized; depth is bounded.
package struct TypeSizer: Sendable {
    /// The registry types are looked up in (untrusted).
    package let registry: PortableRegistry

    /// Creates a sizer over `registry`.
    package init(registry: PortableRegistry) { self.registry = registry }

    /// Whether values of `id` always encode to no bytes. Each type is examined once (results are
    /// memoised), so the work is linear in the registry even when types share fields (a struct of two
    /// copies of a struct of two copies … would otherwise take exponential time).
    package func isZeroSized(_ id: UInt32) throws -> Bool {
        var visiting: Set<UInt32> = []
        var known: [UInt32: Bool] = [:]
        return try zero(id, &visiting, &known, depth: 0)
    }

    // A cycle or the depth cut answers `false` (conservative: such a type has no finite zero-sized
    // value), and that answer is memoised like any other.
    private func zero(
        _ id: UInt32, _ visiting: inout Set<UInt32>, _ known: inout [UInt32: Bool], depth: Int
    ) throws -> Bool {
        if let answer = known[id] { return answer }
        guard depth < 64, !visiting.contains(id) else { return false }
        visiting.insert(id)
        defer { visiting.remove(id) }
        let answer: Bool
        switch try registry.type(id).def {
        case .composite(let fields):
            answer = try fields.allSatisfy { try zero($0.type, &visiting, &known, depth: depth + 1) }
        case .tuple(let ts):
            answer = try ts.allSatisfy { try zero($0, &visiting, &known, depth: depth + 1) }
        case .array(let len, let el):
            answer = try len == 0 || zero(el, &visiting, &known, depth: depth + 1)
        case .variant, .sequence, .primitive, .compact, .bitSequence:
            answer = false
        }
        known[id] = answer
        return answer
    }
}
