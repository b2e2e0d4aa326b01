import ArgumentParser
import Primitives
import SigningKeys

extension KeyError {
    /// A `ValidationError`-like message for the command line (reasons never contain secrets).
    var cliMessage: String { "\(code): \(reason)" }
}
