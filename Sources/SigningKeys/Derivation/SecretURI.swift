import Primitives

/// A Substrate secret URI, `<phrase>(/soft | //hard)*(///password)?`, parsed as sp-core
/// (`crypto.rs` `SecretUri`, `address_uri.rs`) parses it, restricted to the inputs on which
/// polkadot-js (`keyring.ts::createFromUri`, `key/extractSuri.ts`) agrees (docs/reference/crypto.md §3.1).
///
/// Refused with `ambiguousURI` (the two implementations disagree): a missing phrase unless the URI
/// starts with `//` (sp-core would use the dev phrase, polkadot-js rejects it), phrases with
/// non-ASCII letters or repeated/leading/trailing spaces, `+digits`, hex and ≥ 2^64 junctions,
/// passwords beginning with `/` or containing line breaks.
///
/// Security: the phrase, seed and password are held as `Mnemonic`/`SecretBytes`; `description`
/// shows only the structure. The caller's `String` cannot be wiped.
package struct SecretURI: Sendable, CustomStringConvertible {
    /// sp-core `DEV_PHRASE`.
    package static let devPhrase = "bottom drive obey lake curtain smoke basket hold race lonely fit walk"

    /// Where the root secret comes from.
    package enum Root: Sendable {
        /// A BIP39 phrase (Substrate mini secret = PBKDF2 over its entropy).
        case mnemonic(Mnemonic)
        /// A raw `0x` 32-byte seed; any `///password` is ignored for it (sp-core and polkadot-js).
        case seed(SecretBytes)
    }

    /// The root secret (phrase or raw seed; secret).
    package let root: Root
    /// The derivation path in order (its codes are not kept; chain codes only).
    package let junctions: [DeriveJunction]
    /// The `///password`, UTF-8, when present.
    package let password: SecretBytes?
    /// `true` when the phrase was omitted and the dev phrase is used (`//Alice`).
    package let usesDevPhrase: Bool

    package var description: String {
        let kind: String
        switch root {
        case .mnemonic(let m): kind = usesDevPhrase ? "dev phrase" : "\(m.wordCount)-word phrase"
        case .seed: kind = "raw seed"
        }
        let path = junctions.map { $0.isHard ? "//…" : "/…" }.joined()
        return "SecretURI(\(kind)\(path.isEmpty ? "" : " " + path)\(password == nil ? "" : " ///…"))"
    }

    /// Parses a secret URI. Throws `invalidFormat`, `invalidPhrase`, `invalidSeed` or
    /// `ambiguousURI`; error reasons never contain the phrase, seed or password.
    package init(_ text: String) throws {
        // Working copies of the phrase, path and password, wiped when parsing ends.
        var bytes = Array(text.utf8)
        let slash = bytes.firstIndex(of: 0x2f) ?? bytes.count
        var phraseBytes = Array(bytes[..<slash])
        var rest = Array(bytes[slash...])
        var pathBytes = rest
        defer {
            ConstantTime.wipe(&bytes)
            ConstantTime.wipe(&phraseBytes)
            ConstantTime.wipe(&rest)
            ConstantTime.wipe(&pathBytes)
        }

        // Password: everything after the first "///".
        var pw: SecretBytes?
        if let idx = SecretURI.find([0x2f, 0x2f, 0x2f], in: rest) {
            pathBytes = Array(rest[..<idx])
            let passwordBytes = rest[(idx + 3)...]
            if passwordBytes.first == 0x2f {
                throw KeyError(
                    .ambiguousURI, "password begins with '/': sp-core and polkadot-js may split it differently")
            }
            let text = String(decoding: passwordBytes, as: UTF8.self)
            if text.unicodeScalars.contains(where: { [0x0a, 0x0d, 0x2028, 0x2029].contains($0.value) }) {
                throw KeyError(.ambiguousURI, "password contains a line break")
            }
            pw = SecretBytes(passwordBytes)
        }

        // Path.
        var junctions = [DeriveJunction]()
        var i = 0
        while i < pathBytes.count {
            var hard = false
            i += 1  // the leading '/'
            if i < pathBytes.count, pathBytes[i] == 0x2f {
                hard = true
                i += 1
            }
            let end = pathBytes[i...].firstIndex(of: 0x2f) ?? pathBytes.count
            guard end > i else { throw KeyError(.invalidFormat, "secret URI has an empty junction") }
            guard let code = String(validating: pathBytes[i..<end], as: UTF8.self) else {
                throw KeyError(.invalidFormat, "junction is not valid UTF-8")
            }
            junctions.append(try DeriveJunction(code: code, hard: hard))
            i = end
        }

        // Phrase.
        if phraseBytes.isEmpty {
            guard rest.starts(with: [0x2f, 0x2f]) else {
                throw KeyError(
                    .ambiguousURI,
                    "secret URI without a phrase must start with '//' (sp-core and polkadot-js disagree otherwise)")
            }
            root = .mnemonic(try Mnemonic(phrase: SecretURI.devPhrase))
            usesDevPhrase = true
        } else if phraseBytes.starts(with: [0x30, 0x78]) {
            let hex = phraseBytes.dropFirst(2)
            guard hex.count == 64, hex.allSatisfy({ Hex.nibble($0) != nil }) else {
                throw KeyError(.invalidSeed, "0x seed must be exactly 32 bytes of hex")
            }
            root = .seed(
                SecretBytes(count: 32) { out in
                    for k in 0..<32 {
                        let hi = Hex.nibble(hex[hex.startIndex + 2 * k]) ?? 0
                        let lo = Hex.nibble(hex[hex.startIndex + 2 * k + 1]) ?? 0
                        out[k] = hi << 4 | lo
                    }
                })
            usesDevPhrase = false
        } else {
            let allowed = phraseBytes.allSatisfy {
                ($0 >= 0x61 && $0 <= 0x7a) || ($0 >= 0x41 && $0 <= 0x5a) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x20
            }
            guard allowed else {
                throw KeyError(.invalidFormat, "phrase may contain only ASCII letters, digits and spaces")
            }
            guard phraseBytes.first != 0x20, phraseBytes.last != 0x20,
                SecretURI.find([0x20, 0x20], in: phraseBytes) == nil
            else {
                throw KeyError(.ambiguousURI, "phrase words must be separated by single spaces")
            }
            root = .mnemonic(try Mnemonic(phrase: String(decoding: phraseBytes, as: UTF8.self)))
            usesDevPhrase = false
        }
        self.junctions = junctions
        password = pw
    }

    /// The root 32-byte seed: the mini secret of the phrase with the password, or the raw seed.
    package func rootSeed() throws -> SecretBytes {
        switch root {
        case .seed(let s): return s
        case .mnemonic(let m):
            let pwText = password.map { p in p.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } } ?? ""
            return try m.miniSecret(password: pwText)
        }
    }

    private static func find(_ needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard hay.count >= needle.count else { return nil }
        for i in 0...(hay.count - needle.count) where hay[i..<(i + needle.count)].elementsEqual(needle) { return i }
        return nil
    }
}
