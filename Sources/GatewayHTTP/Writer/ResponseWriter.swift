/// Serialises response heads (RFC 9112 §4, §6). The server owns framing: `Content-Length`,
/// `Transfer-Encoding`, `Connection` and `Date` set by a handler are replaced, and a field whose name
/// is not a token or whose value holds CR, LF, NUL or another control character turns the whole
/// response into a 500, so handlers cannot split or inject responses.
enum ResponseWriter {
    /// How the body of a response is delimited.
    enum Framing {
        /// `Content-Length: n` (n may be 0).
        case length(Int)
        /// No length; the body ends when the connection closes (used for event streams).
        case untilClose
        /// No body and no length (1xx, 204, 304).
        case none
    }

    /// The bytes of a response head, and whether the body should follow it.
    struct Head {
        var bytes: [UInt8]
        var sendsBody: Bool
        var keepAlive: Bool
        /// The status code actually written (500 when the handler's response was refused).
        var status = 500
        /// The handler's head was refused (a field that would break framing, a bad reason phrase)
        /// and a bare 500 written in its place.
        var refused = false
    }

    private static let crlf: [UInt8] = [13, 10]
    private static let owned = ["content-length", "transfer-encoding", "connection", "date", "keep-alive"]

    /// Builds the head for `response` answering a request with `method` and `version`.
    /// - Parameters:
    ///   - keepAlive: whether the connection stays open after this response.
    ///   - streaming: an event stream (no `Content-Length`, body until close).
    static func head(
        for response: HTTPResponse, method: HTTPMethod?, version: HTTPVersion, keepAlive: Bool,
        streaming: Bool = false
    ) -> Head {
        guard isValid(response) else {
            var replacement = head(
                for: HTTPResponse(status: .internalServerError), method: method, version: version,
                keepAlive: false)
            replacement.refused = true
            return replacement
        }
        var keepAlive = keepAlive
        if response.headers.listContains("Connection", token: "close") { keepAlive = false }
        if streaming { keepAlive = false }
        let status = (100...599).contains(response.status.code) ? response.status : .internalServerError
        var out: [UInt8] = []
        out.reserveCapacity(256 + response.headers.count * 48)
        out.append(contentsOf: "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n".utf8)
        out.append(contentsOf: "Date: ".utf8)
        out.append(contentsOf: HTTPDate.now())
        out.append(contentsOf: crlf)
        for field in response.headers.fields {
            if owned.contains(where: { field.name.asciiCaseInsensitiveEquals($0) }) { continue }
            out.append(contentsOf: field.name.utf8)
            out.append(contentsOf: ": ".utf8)
            out.append(contentsOf: field.value.utf8)
            out.append(contentsOf: crlf)
        }
        let framing: Framing
        if status.forbidsBody {
            framing = .none
        } else if streaming {
            framing = .untilClose
        } else {
            framing = .length(response.body.count)
        }
        switch framing {
        case .length(let n):
            out.append(contentsOf: "Content-Length: \(n)\r\n".utf8)
        case .untilClose, .none:
            break
        }
        if !keepAlive {
            out.append(contentsOf: "Connection: close\r\n".utf8)
        } else if version == .http10 {
            out.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        out.append(contentsOf: crlf)
        let sendsBody = method != .head && !status.forbidsBody
        return Head(bytes: out, sendsBody: sendsBody, keepAlive: keepAlive, status: status.code)
    }

    /// Whether every header field can be written without breaking framing (RFC 9110 §5.1, §5.5).
    static func isValid(_ response: HTTPResponse) -> Bool {
        guard response.status.reasonPhrase.utf8.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
            return false
        }
        for field in response.headers.fields {
            guard !field.name.isEmpty, field.name.utf8.allSatisfy(ByteClass.isToken) else { return false }
            guard field.value.utf8.allSatisfy(ByteClass.isFieldValue) else { return false }
        }
        return true
    }

    /// A canned response for errors found before a handler runs (parse errors, 503 at the cap, 408).
    static func errorResponse(_ status: HTTPStatus) -> [UInt8] {
        head(for: HTTPResponse(status: status), method: nil, version: .http11, keepAlive: false).bytes
    }
}
