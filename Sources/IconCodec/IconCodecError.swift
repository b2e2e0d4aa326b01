import Primitives

/// `IconCodec`'s error (docs/reference/conventions.md §1; the shape, equality and security rules are
/// `CodedError`'s): why a transaction was refused, as a stable code, the field it concerns (`field`,
/// a dotted path such as `data.params._to`; keys are shown only when they are short printable ASCII,
/// see `displayKey`) and a reason for developers. Every code names one rule of
/// docs/reference/icon.md §3 that a node would otherwise hash or read differently.
///
/// Security: never contains values (addresses, amounts, data), only field names and rules.
package typealias IconCodecError = CodedError<IconCodecErrorCode>

/// Why an `IconCodecError` was thrown; the case name is what messages and logs show
/// (`IconCodecError.<case> at <field>: reason`), so a case is added but never renamed.
package enum IconCodecErrorCode: String, ErrorCode, CaseIterable {
    package static let domain = "IconCodecError"
    /// The text is not JSON (syntax, invalid UTF-8, too deep or too large for the parser).
    case invalidJSON
    /// The transaction is not a JSON object.
    case notAnObject
    /// A key appears twice in one object (also keys that differ only in Unicode normalisation).
    case duplicateKey
    /// A top-level key that is not a v3 field: the node drops it, a signer would hash it (§3.3).
    case unknownField
    /// A `signature` key in a transaction that is to be signed.
    case signaturePresent
    /// A required field (`version`, `from`, `to`, `stepLimit`, `timestamp`, `nid`) is absent.
    case missingField
    /// A field that must be a string is an object, array, boolean or null.
    case wrongType
    /// A JSON number where ICON expects a `0x` hex string (§3.2).
    case numberNotHexString
    /// A `T_INT` that is not `0x` + lower-case hex without leading zeros (`0x01`, `0XA`, `0xA`).
    case nonCanonicalInteger
    /// A `T_INT` longer than 64 hex digits (256 bits).
    case integerTooLarge
    /// An address that is not `hx`/`cx` + 40 lower-case hex digits (upper case included).
    case invalidAddress
    /// `from` is a contract (`cx…`): only accounts (`hx…`) sign.
    case contractAsSender
    /// `version` is not `0x3`.
    case unsupportedVersion
    /// `dataType` is `deploy` (opaque contract code) or not one of `call`, `message`, `deposit`.
    case unsupportedDataType
    /// `data` without `dataType`.
    case dataWithoutDataType
    /// `dataType` without `data`.
    case missingData
    /// `data` of the wrong shape for its `dataType` (e.g. `call` without a string `method`).
    case invalidData
    /// A JSON number inside `data` (goloop hashes it as a decimal, the SDKs differently).
    case numberInData
    /// A boolean inside `data` (goloop cannot hash it at all).
    case booleanInData
    /// An object key with a byte outside ASCII.
    case nonASCIIKey
    /// An object key with a control character or one of `\ . { } [ ]` (SDKs and goloop disagree).
    case specialCharacterInKey
    /// A string containing U+0000.
    case nulCharacter
    /// `data` nested deeper than `IconTransaction.maxDataDepth`.
    case tooDeep
}

extension CodedError where Code == IconCodecErrorCode {
    /// A key as it may appear in a message: printable ASCII up to 40 bytes, otherwise a placeholder.
    static func displayKey(_ key: String) -> String {
        let bytes = Array(key.utf8)
        guard bytes.count <= 40, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7f }) else { return "<key>" }
        return key
    }
}
