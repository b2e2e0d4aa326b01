/// Answers "does this type encode to zero bytes?" for a registry (e.g. `()`, `PhantomData`,
/// an empty struct). Used to accept zero-sized signed extensions and to bound loops over
/// zero-sized elements. Cycles count as not zero-sized; depth is bounded.
public struct TypeSizer: Sendable {
    public let registry: PortableRegistry

    public init(registry: PortableRegistry) { self.registry = registry }

    /// Whether values of `id` always encode to no bytes.
    public func isZeroSized(_ id: UInt32) throws -> Bool {
        var visiting: Set<UInt32> = []
        return try zero(id, &visiting, depth: 0)
    }

    private func zero(_ id: UInt32, _ visiting: inout Set<UInt32>, depth: Int) throws -> Bool {
        guard depth < 64, !visiting.contains(id) else { return false }
        visiting.insert(id)
        defer { visiting.remove(id) }
        switch try registry.type(id).def {
        case .composite(let fields):
            for f in fields where !(try zero(f.type, &visiting, depth: depth + 1)) { return false }
            return true
        case .tuple(let ts):
            for t in ts where !(try zero(t, &visiting, depth: depth + 1)) { return false }
            return true
        case .array(let len, let el):
            return len == 0 ? true : try zero(el, &visiting, depth: depth + 1)
        case .variant, .sequence, .primitive, .compact, .bitSequence:
            return false
        }
    }
}
