import Primitives
import Testing

@testable import Gateway

@Suite struct GatewayErrorTests {
    @Test func errorsCompareByCodeOnly() {
        let a = GatewayError(.invalidInput, "first reason")
        let b = GatewayError(.invalidInput, "another reason")
        #expect(a == b)
        #expect(a.description.contains("first reason"))
        #expect(a.file.hasSuffix("GatewayErrorTests.swift"))
    }
}
