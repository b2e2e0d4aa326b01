/// A type: its Rust path (`["sp_core", "crypto", "AccountId32"]`), generic parameters, shape and docs.
package struct TypeInfo: Hashable, Sendable {
    /// Rust path segments; empty for primitives, tuples, arrays and sequences.
    package var path: [String]
    /// Generic parameters by name, with the concrete type when known.
    package var params: [TypeParameter]
    /// The shape.
    package var def: TypeDefinition
    /// Documentation lines.
    package var docs: [String]

    /// Creates a type.
    package init(path: [String] = [], params: [TypeParameter] = [], def: TypeDefinition, docs: [String] = []) {
        self.path = path
        self.params = params
        self.def = def
        self.docs = docs
    }

    /// Reads a type.
    package init(from reader: inout ScaleReader) throws {
        path = try reader.readVector { r in try r.readString() }
        params = try reader.readVector { r in try TypeParameter(from: &r) }
        def = try TypeDefinition(from: &reader)
        docs = try reader.readVector { r in try r.readString() }
    }

    /// Appends the SCALE encoding.
    package func encode(to writer: inout ScaleWriter) {
        writer.writeVector(path) { w, s in w.writeString(s) }
        writer.writeVector(params) { w, p in p.encode(to: &w) }
        def.encode(to: &writer)
        writer.writeVector(docs) { w, s in w.writeString(s) }
    }
}
