import Testing

@testable import Primitives

/// A module's code as every module declares one (docs/reference/conventions.md §1).
private enum SampleErrorCode: String, ErrorCode {
    static let domain = "SampleError"
    case invalidInput
    case diskFull
}

private typealias SampleError = CodedError<SampleErrorCode>

/// Another module's codes, to pass a `SampleError` on.
private enum OuterErrorCode: String, ErrorCode {
    static let domain = "OuterError"
    case invalidInput
    case other
}

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

    @Test func descriptionNamesTheFieldAndOffsetWhenThereAreSome() {
        #expect(SampleError(.invalidInput, at: 7, "bad").description == "SampleError.invalidInput (offset 7): bad")
        #expect(SampleError(.invalidInput, field: "a.b", "bad").description == "SampleError.invalidInput at a.b: bad")
        #expect(
            SampleError(.invalidInput, at: 0, field: "to", "bad").description
                == "SampleError.invalidInput at to (offset 0): bad")
    }

    @Test func contextDoesNotTakePartInEqualityOrHashing() {
        let a = SampleError(.invalidInput, at: 1, field: "x", "first")
        let b = SampleError(.invalidInput, "second")
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b, SampleError(.diskFull, "full")]).count == 2)
    }

    @Test func withinPrefixesTheFieldPath() {
        let inner = SampleError(.invalidInput, at: 3, "bad")
        let once = inner.within("address")
        #expect(once.field == "address")
        #expect(once.offset == 3 && once.reason == "bad" && once.line == inner.line)
        #expect(once.within("accessList[0]").field == "accessList[0].address")
    }

    @Test func passingOnKeepsTheContext() {
        let inner = SampleError(.invalidInput, at: 5, field: "tip", "bad")
        let outer = CodedError<OuterErrorCode>(inner, else: .other)
        #expect(outer.code == .invalidInput)
        #expect(outer.offset == 5 && outer.field == "tip" && outer.reason == "bad")
        #expect(outer.file == inner.file && outer.line == inner.line)
        #expect(CodedError<OuterErrorCode>(SampleError(.diskFull, "full"), else: .other).code == .other)
    }
}
