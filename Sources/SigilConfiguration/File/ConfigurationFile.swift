import Foundation

/// The config file named by `--config PATH` or `SIGIL_CONFIG`: read whole, parsed, and only then
/// used, so a bad file is never partly applied.
package struct ConfigurationFile: Sendable {
    /// The path as given (errors and `--print-config` show it so).
    package let path: String
    /// Where the path came from (`--config` or `SIGIL_CONFIG`).
    package let pathSource: ConfigurationSource
    package let entries: [ConfigurationFileEntry]

    package init(path: String, pathSource: ConfigurationSource, entries: [ConfigurationFileEntry]) {
        self.path = path
        self.pathSource = pathSource
        self.entries = entries
    }

    /// Reads and parses the file at `path`.
    /// - Throws: `.unreadableFile` naming `pathSource` (missing, a directory, no permission, too
    ///   large), or the parser's `.syntax`/`.duplicateKey` naming the file and line.
    package static func load(path: String, pathSource: ConfigurationSource) throws(ConfigurationError)
        -> ConfigurationFile
    {
        guard !path.isEmpty else {
            throw ConfigurationError(.unreadableFile, source: pathSource, field: "config", "the path is empty")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ConfigurationError(
                .unreadableFile, source: pathSource, field: "config", "cannot read '\(path)': no such file")
        }
        guard !isDirectory.boolValue else {
            throw ConfigurationError(
                .unreadableFile, source: pathSource, field: "config", "cannot read '\(path)': it is a directory")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ConfigurationError(
                .unreadableFile, source: pathSource, field: "config", "cannot read '\(path)': permission denied")
        }
        defer { try? handle.close() }
        let data = handle.readData(ofLength: ConfigurationFileParser.maxBytes + 1)
        let entries = try ConfigurationFileParser.parse([UInt8](data), path: path)
        return ConfigurationFile(path: path, pathSource: pathSource, entries: entries)
    }
}
