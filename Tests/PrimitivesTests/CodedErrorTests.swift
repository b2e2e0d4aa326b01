import Testing

@testable import Primitives

/// A module's code as every module declares one (docs/reference/conventions.md §1).
private enum SampleErrorCode: String, ErrorCode {
    static let domain = "SampleError"
    case invalidInput
    case diskFull
}

private typealias SampleError = CodedError<SampleErrorCode>

@Suite struct CodedErrorTests {
    @Test func errorsCompareByCodeOnly() {
        let a = SampleError(.invalidInput, "first reason")
        let b = SampleError(.invalidInput, "another reason")
        #expect(a == b)
        #expect(a != SampleError(.diskFull, "first reason"))
        #expect(a.file.hasSuffix("CodedErrorTests.swift"))
    }

    @Test func descriptionIsDomainCaseNameAndReason() {
        #expect(SampleErrorCode.diskFull.description == "diskFull")
        #expect("\(SampleErrorCode.diskFull)" == "diskFull")
        #expect(SampleError(.diskFull, "no space left").description == "SampleError.diskFull: no space left")
    }
}
