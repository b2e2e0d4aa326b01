import SigningKeys

/// Maps `KeyError` to a clean one-line failure (exit code 1).
struct KeyCommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ error: KeyError) { description = error.cliMessage }
    init(_ text: String) { description = text }
}
