/// Why a configuration was refused. Every error names where the bad value came from (`source`:
/// a flag, an environment variable, or a file and line) and, when there is one, the option
/// (`field`). Messages never contain the value of a secret option.
///
/// `description` is the line printed to the operator, e.g.
/// `SIGIL_PORT: 'abc' is not a port number (0-65535)` or `sigil.toml line 4: key 'prot' is unknown`.
package struct ConfigurationError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What kind of problem (extensible: a struct wrapping a private enum).
    package struct Code: Equatable, Hashable, CustomStringConvertible, Sendable {
        private enum Value: String, Sendable {
            case syntax, unknownKey, duplicateKey, wrongType, invalidValue, conflict, unreadableFile, refusedSecret
            case several, unmapped
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The config file is not the TOML subset we read (bad token, unterminated string, section…).
        package static let syntax = Code(.syntax)
        /// A file key that is no option.
        package static let unknownKey = Code(.unknownKey)
        /// A file key given twice.
        package static let duplicateKey = Code(.duplicateKey)
        /// A file value of the wrong TOML type (a string where an integer is expected…).
        package static let wrongType = Code(.wrongType)
        /// A value of the right type that an option does not accept (port 70000, 'yes' for a boolean…).
        package static let invalidValue = Code(.invalidValue)
        /// Options that do not go together (auto-approve without dev, tls-cert without tls-key…).
        package static let conflict = Code(.conflict)
        /// The config file (or a file an option names) cannot be read.
        package static let unreadableFile = Code(.unreadableFile)
        /// A secret offered where secrets are refused (SIGIL_PASSWORD).
        package static let refusedSecret = Code(.refusedSecret)
        /// A programming error: an option of the table the command line does not map (or the reverse).
        package static let unmapped = Code(.unmapped)
        /// Several errors at once (`errors`).
        package static let several = Code(.several)

        package var description: String { value.rawValue }
    }

    package let code: Code
    /// Where the bad value came from.
    package let source: ConfigurationSource
    /// The option's name (`port`, `tls-cert`), when the error is about one.
    package let field: String?
    /// What is wrong, for a person; never a secret value.
    package let reason: String
    /// For `.several`: every error found, in order.
    package let errors: [ConfigurationError]

    package init(_ code: Code, source: ConfigurationSource, field: String?, _ reason: String) {
        self.code = code
        self.source = source
        self.field = field
        self.reason = reason
        self.errors = []
    }

    /// One error for several: the first alone when there is one.
    package static func combining(_ errors: [ConfigurationError]) -> ConfigurationError {
        if errors.count == 1, let only = errors.first { return only }
        return ConfigurationError(several: errors)
    }

    private init(several errors: [ConfigurationError]) {
        code = .several
        source = errors.first?.source ?? .defaultValue
        field = errors.first?.field
        reason = "\(errors.count) configuration errors"
        self.errors = errors
    }

    /// Every single error (itself, or those it combines).
    package var all: [ConfigurationError] { code == .several ? errors : [self] }

    /// `<source>: <reason>`, one line per error.
    package var description: String {
        all.map { "\($0.source.label): \($0.reason)" }.joined(separator: "\n")
    }

    /// Compares `code` only, like every module's error type (style: "Error modelling").
    package static func == (lhs: ConfigurationError, rhs: ConfigurationError) -> Bool { lhs.code == rhs.code }
}
