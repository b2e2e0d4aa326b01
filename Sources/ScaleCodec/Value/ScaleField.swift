/// A field of a struct, enum variant or call: name (if any), Rust type name (if any), value.
package struct ScaleField: Hashable, Sendable {
    package var name: String?
    package var typeName: String?
    package var value: ScaleValue

    package init(name: String?, typeName: String?, value: ScaleValue) {
        self.name = name
        self.typeName = typeName
        self.value = value
    }
}
