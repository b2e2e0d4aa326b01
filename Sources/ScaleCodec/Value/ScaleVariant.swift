/// An enum value: variant name and index, and its fields.
public struct ScaleVariant: Hashable, Sendable {
    public var name: String
    public var index: UInt8
    public var fields: [ScaleField]

    public init(name: String, index: UInt8, fields: [ScaleField]) {
        self.name = name
        self.index = index
        self.fields = fields
    }
}
