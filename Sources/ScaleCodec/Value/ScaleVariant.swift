/// An enum value: variant name and index, and its fields.
package struct ScaleVariant: Hashable, Sendable {
    package var name: String
    package var index: UInt8
    package var fields: [ScaleField]

    package init(name: String, index: UInt8, fields: [ScaleField]) {
        self.name = name
        self.index = index
        self.fields = fields
    }
}
