import Primitives
/// Deprecation status of a metadata item (frame-metadata v16 `ItemDeprecationInfo`, and with
/// indices 1/2 only, `VariantDeprecationInfo`). Absent before v16.
package enum DeprecationInfo: Hashable, Sendable {
    case notDeprecated
    case deprecatedWithoutNote
    case deprecated(note: String, since: String?)

    init(from reader: inout ScaleReader, allowNotDeprecated: Bool = true) throws {
        let start = reader.offset
        let tag = try reader.readU8()
        switch tag {
        case 0 where allowNotDeprecated: self = .notDeprecated
        case 1: self = .deprecatedWithoutNote
        case 2:
            let note = try reader.readString()
            self = .deprecated(note: note, since: try reader.readOption { r in try r.readString() })
        default: throw ScaleError(.invalidVariant, "deprecation info \(tag) at offset \(start)")
        }
    }

    func encode(to writer: inout ScaleWriter) {
        switch self {
        case .notDeprecated: writer.writeByte(0)
        case .deprecatedWithoutNote: writer.writeByte(1)
        case .deprecated(let note, let since):
            writer.writeByte(2)
            writer.writeString(note)
            writer.writeOption(since) { w, s in w.writeString(s) }
        }
    }
}
