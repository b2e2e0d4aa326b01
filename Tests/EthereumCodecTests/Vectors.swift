import Foundation
import Primitives
import Testing

/// The one loader of `Resources/ethereum.json` (see Resources/README.md).
enum Vectors {
    static let file: JSONValue = {
        guard let url = Bundle.module.url(forResource: "Resources/ethereum", withExtension: "json"),
            let data = try? Data(contentsOf: url), let value = try? JSONValue.parse(Array(data))
        else { return .null }
        return value
    }()

    static var all: [JSONValue] { file["vectors"]?.arrayValue ?? [] }

    static func ids(kind: String) -> [String] {
        all.filter { $0["kind"]?.stringValue == kind }.compactMap { $0["id"]?.stringValue }
    }

    static func vector(_ id: String) throws -> JSONValue {
        try #require(all.first { $0["id"]?.stringValue == id }, "vector \(id)")
    }

    static func hex(_ v: JSONValue?) throws -> [UInt8] {
        try Hex.decode(try #require(v?.stringValue), prefix: .required)
    }
}

extension JSONValue {
    /// A vector integer: a JSON number or a decimal string.
    var vectorInteger: String? { numberValue?.text ?? stringValue }
}
