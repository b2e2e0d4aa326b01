import Primitives
import Testing

@testable import Keystore

@Suite struct KeystoreErrorTests {
    @Test func errorsCompareByCodeOnly() {
        let a = KeystoreError(.invalidInput, "first reason")
        let b = KeystoreError(.invalidInput, "another reason")
        #expect(a == b)
        #expect(a.description.contains("first reason"))
        #expect(a.file.hasSuffix("KeystoreErrorTests.swift"))
    }
}
