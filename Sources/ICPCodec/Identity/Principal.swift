import Primitives
import SigningKeys

/// An Internet Computer principal: at most 29 bytes (docs/reference/icp.md §4). Self-authenticating
/// ids are SHA-224 of a DER public key ‖ 0x02; the anonymous principal is `04`; the management
/// canister is the empty blob. The text form is `Grouped(Base32(CRC32(bytes) ‖ bytes))`, lower
/// case, a `-` after every five characters.
package struct Principal: Sendable, Hashable, CustomStringConvertible, Comparable {
    package let bytes: [UInt8]

    package static let maxLength = 29
    /// `aaaaa-aa`.
    package static let managementCanister = Principal(unchecked: [])
    /// `2vxsx-fae`.
    package static let anonymous = Principal(unchecked: [0x04])

    /// From raw bytes; refuses more than 29.
    package init(bytes: [UInt8]) throws(ICPCodecError) {
        guard bytes.count <= Principal.maxLength else {
            throw ICPCodecError(.invalidPrincipal, "a principal is at most 29 bytes, got \(bytes.count)")
        }
        self.bytes = bytes
    }

    init(unchecked bytes: [UInt8]) { self.bytes = bytes }

    /// The self-authenticating principal of a DER-encoded public key.
    package init(selfAuthenticating derPublicKey: [UInt8]) {
        bytes = SHA224.hash(derPublicKey) + [0x02]
    }

    package var isAnonymous: Bool { bytes == [0x04] }
    package var isSelfAuthenticating: Bool { bytes.count == 29 && bytes.last == 0x02 }

    /// The canonical text.
    package var text: String {
        let encoded = Array(Base32.encode(CRC32.bigEndian(bytes) + bytes).utf8)
        var out: [UInt8] = []
        out.reserveCapacity(encoded.count + encoded.count / 5)
        for (i, c) in encoded.enumerated() {
            if i > 0, i % 5 == 0 { out.append(UInt8(ascii: "-")) }
            out.append(c)
        }
        return String(decoding: out, as: UTF8.self)
    }

    package var description: String { text }

    /// Parses the text form (case-insensitive). Refuses: length outside 8…63, characters outside
    /// Base32 and `-`, any grouping but a `-` after every five characters, non-zero padding bits, a
    /// checksum that does not match, more than 29 bytes.
    package init(text: String) throws(ICPCodecError) {
        let chars = Array(text.utf8)
        guard (8...63).contains(chars.count) else {
            throw ICPCodecError(.invalidPrincipal, "principal text has \(chars.count) characters; 8…63 allowed")
        }
        var letters: [UInt8] = []
        letters.reserveCapacity(chars.count)
        for (i, c) in chars.enumerated() {
            if i % 6 == 5 {
                guard c == UInt8(ascii: "-") else {
                    throw ICPCodecError(.invalidPrincipal, "principal text must have a '-' after every five characters")
                }
            } else {
                guard c != UInt8(ascii: "-") else {
                    throw ICPCodecError(.invalidPrincipal, "principal text has a misplaced '-'")
                }
                letters.append(c)
            }
        }
        // No trailing separator: the text cannot end with '-'.
        guard chars.last != UInt8(ascii: "-") else {
            throw ICPCodecError(.invalidPrincipal, "principal text ends with '-'")
        }
        guard let decoded = Base32.decode(letters) else {
            throw ICPCodecError(.invalidPrincipal, "principal text is not canonical Base32")
        }
        guard decoded.count >= 4 else { throw ICPCodecError(.invalidPrincipal, "principal text too short") }
        let body = Array(decoded.dropFirst(4))
        guard Array(decoded.prefix(4)) == CRC32.bigEndian(body) else {
            throw ICPCodecError(.invalidPrincipal, "principal text checksum does not match")
        }
        try self.init(bytes: body)
    }

    package static func < (a: Principal, b: Principal) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }

    /// The ICP ledger's account identifier: `CRC32(h) ‖ h`, `h = SHA-224("\x0Aaccount-id" ‖ principal
    /// ‖ subaccount)`; the subaccount is 32 bytes (nil = all zero).
    package func accountIdentifier(subaccount: [UInt8]? = nil) throws(ICPCodecError) -> AccountIdentifier {
        let sub = subaccount ?? [UInt8](repeating: 0, count: 32)
        guard sub.count == 32 else { throw ICPCodecError(.invalidAccount, "a subaccount is 32 bytes") }
        let h = SHA224.hash([0x0A] + Array("account-id".utf8) + bytes + sub)
        return AccountIdentifier(unchecked: CRC32.bigEndian(h) + h)
    }
}

/// A 32-byte ICP ledger account identifier (`CRC32(h) ‖ h`), shown as 64 lower-case hex digits.
package struct AccountIdentifier: Sendable, Hashable, CustomStringConvertible {
    package let bytes: [UInt8]

    init(unchecked bytes: [UInt8]) { self.bytes = bytes }

    /// From 32 bytes whose first four are the CRC32 of the other 28.
    package init(bytes: [UInt8]) throws(ICPCodecError) {
        guard bytes.count == 32 else { throw ICPCodecError(.invalidAccount, "an account identifier is 32 bytes") }
        guard Array(bytes.prefix(4)) == CRC32.bigEndian(bytes.dropFirst(4)) else {
            throw ICPCodecError(.invalidAccount, "account identifier checksum does not match")
        }
        self.bytes = bytes
    }

    /// From 64 hex digits (no prefix).
    package init(hex: String) throws(ICPCodecError) {
        guard let raw = try? Hex.decode(hex, prefix: .forbidden) else {
            throw ICPCodecError(.invalidAccount, "an account identifier is 64 hex digits")
        }
        try self.init(bytes: raw)
    }

    package var hex: String { Hex.encode(bytes, prefix: false) }
    package var description: String { hex }
}

/// An ICRC-1 account: owner principal and optional 32-byte subaccount. The text form (ICRC-1
/// TextualEncoding) is the owner's text when the subaccount is absent or all zero, otherwise
/// `<owner>-<base32(crc32(owner ‖ sub))>.<hex(sub) without leading zeros>`.
package struct ICRC1Account: Sendable, Hashable, CustomStringConvertible {
    package let owner: Principal
    /// 32 bytes or nil (the default, all zero, is normalised to nil).
    package let subaccount: [UInt8]?

    package init(owner: Principal, subaccount: [UInt8]? = nil) throws(ICPCodecError) {
        if let sub = subaccount {
            guard sub.count == 32 else { throw ICPCodecError(.invalidAccount, "a subaccount is 32 bytes") }
        }
        self.owner = owner
        self.subaccount = subaccount.flatMap { $0.allSatisfy { $0 == 0 } ? nil : $0 }
    }

    package var text: String {
        guard let sub = subaccount else { return owner.text }
        let checksum = Base32.encode(CRC32.bigEndian(owner.bytes + sub))
        var hex = Substring(Hex.encode(sub, prefix: false))
        while hex.first == "0" { hex = hex.dropFirst() }
        return "\(owner.text)-\(checksum).\(hex)"
    }

    package var description: String { text }

    /// Parses the ICRC-1 text form. Refuses a bad owner, a checksum that does not match, a
    /// subaccount with leading zeros, upper case, more than 64 digits, or all zero in long form.
    package init(text: String) throws(ICPCodecError) {
        let parts = text.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        if parts.count == 1 {
            try self.init(owner: Principal(text: text))
            return
        }
        guard parts.count == 2 else { throw ICPCodecError(.invalidAccount, "more than one '.' in account text") }
        let head = parts[0]
        let hexPart = Array(parts[1].utf8)
        guard let dash = head.lastIndex(of: "-") else {
            throw ICPCodecError(.invalidAccount, "account text without checksum")
        }
        let owner = try Principal(text: String(head[..<dash]))
        let checksum = String(head[head.index(after: dash)...])
        guard !hexPart.isEmpty, hexPart.count <= 64, hexPart.first != UInt8(ascii: "0"),
            hexPart.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else {
            throw ICPCodecError(.invalidAccount, "subaccount must be 1…64 lower-case hex digits without leading zeros")
        }
        let padded = String(repeating: "0", count: 64 - hexPart.count) + String(decoding: hexPart, as: UTF8.self)
        guard let sub = try? Hex.decode(padded, prefix: .forbidden) else {
            throw ICPCodecError(.invalidAccount, "subaccount is not hex")
        }
        guard checksum == Base32.encode(CRC32.bigEndian(owner.bytes + sub)) else {
            throw ICPCodecError(.invalidAccount, "account text checksum does not match")
        }
        try self.init(owner: owner, subaccount: sub)
    }
}
