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
/// `code`, a developer-facing `reason`, where it was thrown and, for errors that point into their
/// input, where in it: `offset` (a byte offset) and `field` (a dotted field path such as
/// `accessList[0].address`). Each module names its own error type with it
/// (`package typealias KeystoreError = CodedError<KeystoreErrorCode>`), so a module still has exactly
/// one error type and callers still catch it by that name.
///
/// Two errors are equal when their codes are (the reason is prose for people and logs; the offset
/// and field are context), and hash by their code.
/// Security: `reason` and `field` must never contain secret material (keys, seeds, passwords,
/// tokens) nor echo untrusted input verbatim beyond a short, escaped excerpt.
package struct CodedError<C: ErrorCode>: Error, Hashable, CustomStringConvertible, Sendable {
    /// The module's code type (`KeystoreError.Code`).
    package typealias Code = C

    /// The stable error code.
    package let code: Code
    /// Byte offset into the input where the problem is, when the input is bytes or text.
    package let offset: Int?
    /// The dotted path of the field the problem concerns, when there is one.
    package let field: String?
    /// A human explanation for developers and logs; never secret.
    package let reason: String
    /// Source location where the error was created.
    package let file: String
    package let line: Int

    /// Creates an error. - Parameters: code, where in the input (`offset`, `field`) when the error
    /// points into it, reason (no secrets, no input values), and the throwing site.
    package init(
        _ code: Code, at offset: Int? = nil, field: String? = nil, _ reason: String, file: String = #fileID,
        line: Int = #line
    ) {
        self.code = code
        self.offset = offset
        self.field = field
        self.reason = reason
        self.file = file
        self.line = line
    }

    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    package func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `<Domain>.<code>[ at <field>][ (offset <n>)]: <reason>`.
    package var description: String {
        "\(Code.domain).\(code)" + (field.map { " at \($0)" } ?? "") + (offset.map { " (offset \($0))" } ?? "")
            + ": \(reason)"
    }

    /// The same error with `outer` prefixed to its field path (`outer.field`, or `outer` when it
    /// had none): a decoder of a nested value throws, its caller names where the value sits.
    package func within(_ outer: String) -> Self {
        Self(code, at: offset, field: field.map { outer + "." + $0 } ?? outer, reason, file: file, line: line)
    }
}

extension CodedError where Code: RawRepresentable, Code.RawValue == String {
    /// Another module's error passed on as this module's (`StateStoreError(keystoreError, else: .fileSystem)`):
    /// the code of the same name when this module has one, so what `sigil` prints (`<code>: <reason>`)
    /// reads the same, else `fallback`. The reason, offset, field and the throwing site are kept.
    package init<Other: ErrorCode & RawRepresentable>(_ other: CodedError<Other>, else fallback: Code)
    where Other.RawValue == String {
        self.init(
            Code(rawValue: other.code.rawValue) ?? fallback, at: other.offset, field: other.field, other.reason,
            file: other.file, line: other.line)
    }
}
