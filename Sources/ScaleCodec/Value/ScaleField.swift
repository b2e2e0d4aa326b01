/// A field of a struct, enum variant or call: name (if any), Rust type name (if any), value.
public struct ScaleField: Hashable, Sendable {
    public var name: String?
    public var typeName: String?
    public var value: ScaleValue

    public init(name: String?, typeName: String?, value: ScaleValue) {
        self.name = name
        self.typeName = typeName
        self.value = value
    }
}
