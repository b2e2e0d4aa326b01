import Primitives
import Testing

@testable import ScaleCodec

@Suite struct ScaleErrorTests {
    @Test func errorsCompareByCodeOnly() {
        let a = ScaleError(.invalidInput, "first reason")
        let b = ScaleError(.invalidInput, "another reason")
        #expect(a == b)
        #expect(a.description.contains("first reason"))
        #expect(a.file.hasSuffix("ScaleErrorTests.swift"))
    }
}
