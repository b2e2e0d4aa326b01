import Primitives
import Testing

@testable import SigningKeys

@Suite struct KeyErrorTests {
    @Test func errorsCompareByCodeOnly() {
        let a = KeyError(.invalidInput, "first reason")
        let b = KeyError(.invalidInput, "another reason")
        #expect(a == b)
        #expect(a.description.contains("first reason"))
        #expect(a.file.hasSuffix("KeyErrorTests.swift"))
    }
}
