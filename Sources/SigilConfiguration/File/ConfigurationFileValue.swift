/// A value as written in the config file (the TOML types of our subset).
package indirect enum ConfigurationFileValue: Equatable, Sendable {
    case string(String)
    case integer(Int)
    case boolean(Bool)
    case array([ConfigurationFileValue])

    /// "a string", "an integer", … for messages.
    package var typeName: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .boolean: "a boolean"
        case .array: "an array"
        }
    }
}
