/// One `key = value` line of the config file.
public struct ConfigurationFileEntry: Equatable, Sendable {
    public let key: String
    public let value: ConfigurationFileValue
    /// 1-based line of the key.
    public let line: Int

    public init(key: String, value: ConfigurationFileValue, line: Int) {
        self.key = key
        self.value = value
        self.line = line
    }
}
