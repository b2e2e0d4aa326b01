import Testing

@testable import SignerCore

@Suite struct AppNameTests {
    @Test(arguments: [
        ("Polkadot/Substrate Portal", "Polkadot/Substrate Portal", false),
        ("  My \n\t Dapp  ", "My Dapp", false),
        ("<b>Evil</b> Dapp", "Evil Dapp", true),
        ("", "", true),
        ("   ", "", true),
        ("javascript://alert(1)", "javascript://alert(1)", true),
        ("https://polkadot.js.org", "https://polkadot.js.org", false),
        ("http://192.168.1.1", "http://192.168.1.1", true),
        ("10.0.0.1", "10.0.0.1", true),
        ("Name\u{202E}txt.exe", "Name txt.exe", false),
    ])
    func namesAreSanitizedAndFlagged(input: String, text: String, suspicious: Bool) {
        let name = AppName(declared: input)
        #expect(name.text == text)
        #expect(name.isSuspicious == suspicious)
    }

    @Test func longNamesAreCutAtFiftyCharactersAndFlagged() {
        let name = AppName(declared: String(repeating: "a", count: 80))
        #expect(name.text.count == 50)
        #expect(name.isSuspicious)
    }
}
