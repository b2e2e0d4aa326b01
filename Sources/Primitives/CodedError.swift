/// A module error's stable code: one case of a module's closed set, which grows by adding a case
/// (docs/reference/conventions.md §1). A module declares it as a plain string enum, the cases
/// documented where they are declared:
///
/// ```swift
/// package enum KeystoreErrorCode: String, ErrorCode {
///     package static let domain = "KeystoreError"
///     /// No account with that address in the keystore.
///     case accountNotFound
/// }
/// ```
package protocol ErrorCode: Hashable, Sendable, CustomStringConvertible {
    /// The module error's name in messages: `HTTPError`, `KeystoreError`, …
    static var domain: String { get }
}

extension ErrorCode where Self: RawRepresentable, RawValue == String {
    /// The code's name in messages and logs: its raw value, the case name (`diskFull`).
    package var description: String { rawValue }
}

/// The one coded error shape every module shares (docs/reference/conventions.md §1): a stable
/// `code`, a developer-facing `reason`, and where it was thrown. Each module names its own error
/// type with it (`package typealias KeystoreError = CodedError<KeystoreErrorCode>`), so a module still
/// has exactly one error type and callers still catch it by that name.
///
/// Two errors are equal when their codes are (the reason is prose for people and logs).
/// Security: `reason` must never contain secret material (keys, seeds, passwords, tokens) nor echo
/// untrusted input verbatim beyond a short, escaped excerpt.
package struct CodedError<C: ErrorCode>: Error, Equatable, CustomStringConvertible, Sendable {
    /// The module's code type (`KeystoreError.Code`).
    package typealias Code = C

    /// The stable error code.
    package let code: Code
    /// A human explanation for developers and logs; never secret.
    package let reason: String
    /// Source location where the error was created.
    package let file: String
    package let line: Int

    /// Creates an error. - Parameters: code, reason (no secrets), and the throwing site.
    package init(_ code: Code, _ reason: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
    }

    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    package var description: String { "\(Code.domain).\(code): \(reason)" }
}

extension CodedError where Code: RawRepresentable, Code.RawValue == String {
    /// Another module's error passed on as this module's (`StateStoreError(keystoreError, else: .fileSystem)`):
    /// the code of the same name when this module has one, so what `sigil` prints (`<code>: <reason>`)
    /// reads the same, else `fallback`. The reason and the throwing site are kept.
    package init<Other: ErrorCode & RawRepresentable>(_ other: CodedError<Other>, else fallback: Code)
    where Other.RawValue == String {
        self.init(Code(rawValue: other.code.rawValue) ?? fallback, other.reason, file: other.file, line: other.line)
    }
}
