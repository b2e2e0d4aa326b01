/// A pallet's storage items (frame-metadata `PalletStorageMetadata`). Kept so metadata
/// re-encodes byte for byte; not used for display.
package struct PalletStorage: Hashable, Sendable {
    package var prefix: String
    package var entries: [StorageEntry]

    init(from r: inout ScaleReader, version: UInt8) throws {
        prefix = try r.readString()
        entries = try r.readVector { r in try StorageEntry(from: &r, version: version) }
    }

    func encode(to w: inout ScaleWriter, version: UInt8) {
        w.writeString(prefix)
        w.writeVector(entries) { w, e in e.encode(to: &w, version: version) }
    }
}
