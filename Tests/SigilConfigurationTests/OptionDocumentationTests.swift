import Foundation
import Testing

@testable import SigilConfiguration

/// `ServeConfiguration.options` is the one place where a `sigil serve` option and its default are
/// defined. These tests hold the other places to it: the option table of docs/configuration.md
/// (every column), the `--help` texts built from it, and the `ServeSettings` fields that receive
/// the defaults.
@Suite struct OptionDocumentationTests {
    /// One row of the "Options" table in docs/configuration.md, cells with backticks removed.
    struct DocumentedOption {
        let line: Int
        let flag: String
        let environment: String
        let fileKey: String
        let defaultText: String
        let meaning: String

        /// The option name: the first `--name` in the flag cell.
        var name: String? {
            guard let range = flag.range(of: "--") else { return nil }
            let rest = flag[range.upperBound...]
            let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            return name.isEmpty ? nil : String(name)
        }
    }

    /// The repository's docs/configuration.md, found from this file's path (Tests/<target>/<file>).
    static func configurationDocument() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
    }

    /// Splits a Markdown table row on `|` that is not escaped as `\|`; unescapes and trims each cell.
    static func cells(_ row: String) -> [String] {
        var cells: [String] = []
        var current = ""
        var previous: Character?
        for character in row {
            if character == "|" && previous != "\\" {
                cells.append(current)
                current = ""
            } else {
                current.append(character)
            }
            previous = character
        }
        cells.append(current)
        // A row starts and ends with '|': drop the empty outer cells.
        return cells.dropFirst().dropLast().map {
            $0.replacingOccurrences(of: "\\|", with: "|").trimmingCharacters(in: .whitespaces)
        }
    }

    /// The rows of the table under "## Options" (header and separator skipped).
    static func documentedOptions() throws -> [DocumentedOption] {
        let lines = try configurationDocument().components(separatedBy: "\n")
        guard let heading = lines.firstIndex(of: "## Options") else { return [] }
        var rows: [DocumentedOption] = []
        var inTable = false
        for index in (heading + 1)..<lines.count {
            let line = lines[index]
            if line.hasPrefix("## ") { break }
            guard line.hasPrefix("|") else {
                if inTable { break }
                continue
            }
            inTable = true
            let cells = Self.cells(line).map { $0.replacingOccurrences(of: "`", with: "") }
            guard cells.count == 5, cells[0] != "flag", !cells[0].hasPrefix("---") else { continue }
            rows.append(
                DocumentedOption(
                    line: index + 1, flag: cells[0], environment: cells[1], fileKey: cells[2], defaultText: cells[3],
                    meaning: cells[4]))
        }
        return rows
    }

    /// `--print-config` is a flag of the command, not an option of the table.
    static let commandOnlyFlags: Set<String> = ["print-config"]

    @Test func theDocumentedOptionsAreTheTableRowsInTableOrder() throws {
        let documented = try Self.documentedOptions().compactMap(\.name).filter { !Self.commandOnlyFlags.contains($0) }
        #expect(documented == ServeConfiguration.options.map(\.name))
    }

    @Test(arguments: ServeConfiguration.options.map(\.name))
    func everyColumnOfTheDocumentedRowFollowsTheTable(name: String) throws {
        let option = try #require(ServeConfiguration.option(name))
        let row = try #require(
            try Self.documentedOptions().first { $0.name == name }, "docs/configuration.md has no row for --\(name)")
        let place = "docs/configuration.md line \(row.line)"
        #expect(row.environment == option.environmentVariable, "\(place): environment variable")
        #expect(row.fileKey == (option.allowedInFile ? option.fileKey : "—"), "\(place): file key")
        #expect(row.defaultText == option.defaultDescription, "\(place): default")
        switch option.kind {
        case .integer(let range, _):
            #expect(row.meaning.contains("\(range.lowerBound)–\(range.upperBound)"), "\(place): range")
        case .choice(let words):
            for word in words {
                #expect(row.flag.contains(word) || row.meaning.contains(word), "\(place): choice \(word)")
            }
        case .boolean:
            #expect(row.flag.contains("--no-\(name)"), "\(place): --no-\(name)")
        case .list:
            #expect(row.flag.contains("(repeatable)"), "\(place): (repeatable)")
        case .string, .path:
            break
        }
    }

    @Test func theDefaultTextIsTheValueOrWhatUnsetMeans() throws {
        let port = try #require(ServeConfiguration.option("port"))
        #expect(port.defaultDescription == "9715")
        #expect(
            port.help == "Port for dapps (bridge script and API); 0 picks a free port. Range 0-65535; default: 9715.")
        #expect(try #require(ServeConfiguration.option("dev")).defaultDescription == "false")
        #expect(try #require(ServeConfiguration.option("log-level")).defaultDescription == "info")
        #expect(try #require(ServeConfiguration.option("tls-cert")).defaultDescription == "plain HTTP")
        #expect(ServeConfiguration.help("no-such-option") == "(no-such-option is not in ServeConfiguration.options)")
    }

    @Test(arguments: ServeConfiguration.options.map(\.name))
    func everyHelpTextStatesTheTableDefault(name: String) throws {
        let option = try #require(ServeConfiguration.option(name))
        let help = ServeConfiguration.help(name)
        #expect(help.hasPrefix(option.summary))
        #expect(help.contains("efault: \(option.defaultDescription)."))
        if case .integer(let range, _) = option.kind {
            #expect(help.contains("\(range.lowerBound)-\(range.upperBound)"))
        }
    }

    /// Every option with a default reaches its `ServeSettings` field with exactly the table's value
    /// (`ServeSettings` writes no default of its own).
    @Test func serveSettingsReceiveEveryTableDefault() throws {
        var commandLine: [String: ConfigurationValue?] = [:]
        for option in ServeConfiguration.options { commandLine[option.name] = .some(nil) }
        let settings = ServeSettings(
            try ServeConfiguration.resolver.resolve(commandLine: commandLine, environment: [:]))
        let fields: [String: ConfigurationValue] = [
            "port": .integer(settings.port), "ui-port": .integer(settings.uiPort),
            "log-level": .string(settings.logLevel), "log-format": .string(settings.logFormat),
            "token-output": .string(settings.tokenOutput), "dev": .boolean(settings.dev),
            "auto-approve": .boolean(settings.autoApprove), "approve": .string(settings.approve),
            "approval-timeout": .integer(settings.approvalTimeoutSeconds), "journal": .boolean(settings.journal),
            "journal-shown-limit": .integer(settings.journalShownLimit),
            "journal-checkpoint-interval": .integer(settings.journalCheckpointIntervalSeconds),
            "journal-sync": .string(settings.journalSync),
            "icon-nid": .string(settings.iconNID),
        ]
        let defaulted = ServeConfiguration.options.filter { $0.defaultValue != nil }
        #expect(Set(fields.keys) == Set(defaulted.map(\.name)), "a defaulted option without a field in this test")
        for option in defaulted {
            #expect(fields[option.name] == option.defaultValue, "ServeSettings field of \(option.name)")
        }
    }
}
