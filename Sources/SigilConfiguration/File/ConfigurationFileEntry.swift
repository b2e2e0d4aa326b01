/// One `key = value` line of the config file.
package struct ConfigurationFileEntry: Equatable, Sendable {
    package let key: String
    package let value: ConfigurationFileValue
    /// 1-based line of the key.
    package let line: Int

    package init(key: String, value: ConfigurationFileValue, line: Int) {
        self.key = key
        self.value = value
        self.line = line
    }
}
