import Primitives
import Testing

@testable import GatewayHTTP

@Suite struct HTTPErrorTests {
    @Test func errorsCompareByCodeOnly() {
        let a = HTTPError(.invalidInput, "first reason")
        let b = HTTPError(.invalidInput, "another reason")
        #expect(a == b)
        #expect(a.description.contains("first reason"))
        #expect(a.file.hasSuffix("HTTPErrorTests.swift"))
    }
}
