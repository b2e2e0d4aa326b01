import Primitives
import Testing

@testable import SignerCore

@Suite struct SignerErrorTests {
    @Test func errorsCompareByCodeOnly() {
        let a = SignerError(.invalidInput, "first reason")
        let b = SignerError(.invalidInput, "another reason")
        #expect(a == b)
        #expect(a.description.contains("first reason"))
        #expect(a.file.hasSuffix("SignerErrorTests.swift"))
    }
}
