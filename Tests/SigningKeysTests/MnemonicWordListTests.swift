import Testing

@testable import SigningKeys

/// The compiled-in BIP-0039 English list (Mnemonic+EnglishWords.swift) is byte for byte the
/// published file: same SHA-256 (with the file's final newline), 2048 distinct words in order.
struct MnemonicWordListTests {
    @Test func theCompiledInWordListIsTheBIP39EnglishFile() throws {
        let file = Array((Mnemonic.englishWordsText + "\n").utf8)
        let digest = Mnemonic.sha256(file).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        #expect(digest == "2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda")
        let words = try Mnemonic.wordList()
        #expect(words.list.count == 2048)
        #expect(Set(words.list).count == 2048)
        #expect(words.list.first == "abandon" && words.list.last == "zoo")
        #expect(words.index["zoo"] == 2047)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
