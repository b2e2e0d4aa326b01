import COpenSSL
import CSodium
import Foundation
import Primitives

/// A BIP39 English mnemonic (12, 15, 18, 21 or 24 words, checksum validated) and Substrate's
/// mnemonic → mini-secret rule (substrate-bip39 0.4.6; docs/reference/crypto.md §3.2).
///
/// Security facts: the phrase and entropy live in `SecretBytes`; `description` shows only the word
/// count. Parsing is strict: lower-case words from the list separated by single ASCII spaces
/// (sp-core would also accept other whitespace, polkadot-js would not, so we refuse it).
/// `miniSecret` is deterministic (PBKDF2-HMAC-SHA512 over the *entropy*, 2048 rounds, salt
/// `"mnemonic" ‖ password`, OpenSSL).
package struct Mnemonic: Sendable, CustomStringConvertible {
    /// Word counts BIP39 allows.
    package static let allowedWordCounts = [12, 15, 18, 21, 24]

    /// The phrase, UTF-8 (ASCII), words joined by single spaces.
    package let phrase: SecretBytes
    /// The BIP39 entropy (16…32 bytes).
    package let entropy: SecretBytes
    /// Number of words.
    package let wordCount: Int

    package var description: String { "Mnemonic(\(wordCount) words, redacted)" }

    /// Parses and validates a phrase. Throws `invalidPhrase` (never echoing the words).
    package init(phrase text: String) throws {
        let words = try Mnemonic.wordList()
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard Mnemonic.allowedWordCounts.contains(parts.count) else {
            throw KeyError(.invalidPhrase, "mnemonic has \(parts.count) words; expected 12, 15, 18, 21 or 24")
        }
        var bits = [Bool]()
        bits.reserveCapacity(parts.count * 11)
        for (position, word) in parts.enumerated() {
            guard let index = words.index[String(word)] else {
                throw KeyError(.invalidPhrase, "mnemonic word \(position + 1) is not in the BIP39 English list")
            }
            for b in (0..<11).reversed() { bits.append((index >> b) & 1 == 1) }
        }
        let checksumBits = parts.count / 3
        let entropyBytes = (bits.count - checksumBits) / 8
        var ent = [UInt8](repeating: 0, count: entropyBytes)
        for i in 0..<(entropyBytes * 8) where bits[i] { ent[i / 8] |= 0x80 >> UInt8(i % 8) }
        let hash = Mnemonic.sha256(ent)
        var ok = true
        for i in 0..<checksumBits {
            let expected = (hash[i / 8] >> UInt8(7 - i % 8)) & 1 == 1
            if bits[entropyBytes * 8 + i] != expected { ok = false }
        }
        for i in bits.indices { bits[i] = false }
        guard ok else {
            ConstantTime.wipe(&ent)
            throw KeyError(.invalidPhrase, "mnemonic checksum does not match")
        }
        entropy = SecretBytes(ent)
        ConstantTime.wipe(&ent)
        phrase = SecretBytes(text.utf8)
        wordCount = parts.count
    }

    /// Builds the mnemonic for 16, 20, 24, 28 or 32 bytes of entropy. Deterministic.
    package init(entropy: SecretBytes) throws {
        guard [16, 20, 24, 28, 32].contains(entropy.count) else {
            throw KeyError(.badLength, "BIP39 entropy must be 16, 20, 24, 28 or 32 bytes, got \(entropy.count)")
        }
        let words = try Mnemonic.wordList()
        let ent = entropy.unsafeExposedBytes()
        let hash = Mnemonic.sha256(ent)
        var bits = [Bool]()
        for byte in ent { for b in (0..<8).reversed() { bits.append((byte >> UInt8(b)) & 1 == 1) } }
        for i in 0..<(ent.count * 8 / 32) { bits.append((hash[i / 8] >> UInt8(7 - i % 8)) & 1 == 1) }
        var text = [UInt8]()
        for w in 0..<(bits.count / 11) {
            var index = 0
            for b in 0..<11 { index = index << 1 | (bits[w * 11 + b] ? 1 : 0) }
            if w > 0 { text.append(0x20) }
            text.append(contentsOf: words.list[index].utf8)
        }
        self.entropy = entropy
        phrase = SecretBytes(text)
        wordCount = bits.count / 11
        ConstantTime.wipe(&text)
    }

    /// A new mnemonic from system randomness (`randombytes_buf`). `wordCount` ∈ 12, 15, 18, 21, 24.
    package static func generate(wordCount: Int = 12) throws -> Mnemonic {
        guard allowedWordCounts.contains(wordCount) else {
            throw KeyError(.invalidInput, "word count \(wordCount) is not 12, 15, 18, 21 or 24")
        }
        return try Mnemonic(entropy: SecretBytes.random(count: wordCount * 4 / 3))
    }

    /// The phrase as a `String` (for display by `sigil key generate`; the string cannot be wiped).
    package func exposedPhrase() -> String {
        phrase.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// substrate-bip39 `mini_secret_from_entropy`: the first 32 bytes of
    /// PBKDF2-HMAC-SHA512(entropy, "mnemonic" ‖ password, 2048). Deterministic.
    package func miniSecret(password: String = "") throws -> SecretBytes {
        try seed64(password: password).slice(0..<32)
    }

    /// The full 64-byte PBKDF2 output (substrate-bip39 `seed_from_entropy`).
    package func seed64(password: String = "") throws -> SecretBytes {
        var salt = Array("mnemonic".utf8) + Array(password.utf8)
        defer { ConstantTime.wipe(&salt) }
        guard let saltLength = Int32(exactly: salt.count) else {
            throw KeyError(.badLength, "mnemonic password is longer than 2^31 bytes")
        }
        var rc: Int32 = 0
        let out = SecretBytes(count: 64) { dst in
            entropy.withUnsafeBytes { ent in
                rc = PKCS5_PBKDF2_HMAC(
                    ent.baseAddress, Int32(ent.count),
                    salt, saltLength, 2048, EVP_sha512(), 64,
                    dst.u8)
            }
        }
        guard rc == 1 else { throw KeyError(.cryptoFailure, "PKCS5_PBKDF2_HMAC failed") }
        return out
    }

    /// The standard BIP39 seed (BIP-0039 "From mnemonic to seed"; docs/reference/icon.md §6.1):
    /// PBKDF2-HMAC-SHA512 over the NFKD *phrase*, salt `"mnemonic" ‖ NFKD(passphrase)`, 2048 rounds,
    /// 64 bytes. This is what BIP32 wallets (ICON, Ethereum, ICP) derive from; Substrate's
    /// `seed64`/`miniSecret` hash the entropy instead and give different keys. The phrase is ASCII
    /// (parsing is strict), so NFKD leaves it unchanged. Deterministic.
    package func bip39Seed(passphrase: String = "") throws -> SecretBytes {
        var salt = Array("mnemonic".utf8) + Array(passphrase.decomposedStringWithCompatibilityMapping.utf8)
        defer { ConstantTime.wipe(&salt) }
        guard let saltLength = Int32(exactly: salt.count), let phraseLength = Int32(exactly: phrase.count) else {
            throw KeyError(.badLength, "mnemonic passphrase is longer than 2^31 bytes")
        }
        var rc: Int32 = 0
        let out = SecretBytes(count: 64) { dst in
            phrase.withUnsafeBytes { text in
                text.withMemoryRebound(to: CChar.self) { chars in
                    rc = PKCS5_PBKDF2_HMAC(
                        chars.baseAddress, phraseLength, salt, saltLength, 2048, EVP_sha512(), 64, dst.u8)
                }
            }
        }
        guard rc == 1 else { throw KeyError(.cryptoFailure, "PKCS5_PBKDF2_HMAC failed") }
        return out
    }

    // MARK: word list

    struct WordList: Sendable {
        let list: [String]
        let index: [String: Int]
    }

    private static let loaded: Result<WordList, KeyError> = {
        // Compiled in (Mnemonic+EnglishWords.swift), so no resource bundle has to travel with the binary.
        let list = englishWordsText.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map(String.init)
        guard list.count == 2048 else {
            return .failure(KeyError(.cryptoFailure, "BIP39 word list has \(list.count) words, expected 2048"))
        }
        var index = [String: Int]()
        for (i, w) in list.enumerated() { index[w] = i }
        return .success(WordList(list: list, index: index))
    }()

    static func wordList() throws -> WordList { try loaded.get() }

    static func sha256(_ data: [UInt8]) -> [UInt8] {
        Sodium.ensureInitialized()
        var out = [UInt8](repeating: 0, count: 32)
        crypto_hash_sha256(&out, data, UInt64(data.count))
        return out
    }
}
