import ArgumentParser
import Foundation

/// Reads a secret URI argument, or one line of standard input for `-`.
enum SecretInput {
    /// The URI argument, or one line from standard input for `-`.
    static func read(_ argument: String) throws -> String {
        guard argument == "-" else { return argument }
        guard let line = readLine(strippingNewline: true) else {
            throw ValidationError("expected a secret URI on standard input")
        }
        return line
    }
}
