import Gateway
import Primitives
import Testing

/// Issue 24 Also (a): ICRC-25's error table says what `data` is: text for 1000 and 2000 (2001 and the
/// JSON-RPC codes likewise), absent for 3000 and 3001, `{status, message}` for 4000 (the HTTP
/// status). Sigil used to send `{"description": …}` for every code.
@Suite struct IcrcErrorShapeTests {
    @Test(
        arguments: [
            (IcrcError(.genericError, "bad arg"), .string("bad arg")),
            (IcrcError(.notSupported, "no such method"), .string("no such method")),
            (IcrcError(.noConsentMessage, "blind"), .string("blind")),
            (IcrcError(.invalidRequest, "not JSON-RPC"), .string("not JSON-RPC")),
            (IcrcError(.parseError, "not JSON"), .string("not JSON")),
            (IcrcError(.permissionNotGranted, "not allowed"), nil),
            (IcrcError(.actionAborted, "rejected"), nil),
            (
                IcrcError(.networkError, "the IC endpoint refused the call (HTTP 503)", httpStatus: 503),
                JSONValue.object(
                    JSONObject([("status", 503), ("message", "the IC endpoint refused the call (HTTP 503)")]))
            ),
            (IcrcError(.networkError, "no endpoint configured"), nil),
        ] as [(IcrcError, JSONValue?)])
    func dataFollowsTheStandard(error: IcrcError, data: JSONValue?) {
        let json = error.json
        #expect(json["code"]?.integer(as: Int.self) == error.code.rawValue)
        #expect(json["message"]?.stringValue == error.code.message)
        #expect(json["data"] == data)
        #expect(json["data"]?["description"] == nil)
    }
}
