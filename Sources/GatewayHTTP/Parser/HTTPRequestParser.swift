import Primitives
/// An incremental HTTP/1.1 request parser: a pure value fed with bytes, yielding complete requests
/// or a typed error. It does no I/O and keeps no clock, so it can be fuzzed and unit-tested on byte
/// strings (docs/reference/http-server.md §4, §6 item 4).
///
/// Strict per RFC 9112: CRLF line endings only (bare CR or LF is 400), exactly one `Host` on 1.1,
/// no whitespace before a field's colon, no obs-fold, no CTLs in values, a single well-formed
/// `Content-Length`, no `Transfer-Encoding` together with `Content-Length` or on HTTP/1.0, `chunked`
/// last and only once, hex chunk sizes checked against the body limit before the bytes arrive.
/// After an error the parser stays failed: the connection must answer `responseStatus` and close,
/// never resynchronise (RFC 9112 §6.3 on framing errors, request smuggling).
///
/// Input: untrusted bytes. Limits: `HTTPLimits`. Memory: at most one request head plus one body
/// (bounded by the limits) plus whatever the caller feeds before asking for the next request.
package struct HTTPRequestParser: Sendable {
    /// One request as framed by the parser.
    package struct Message: Sendable {
        /// The request (addresses and port are filled in by the server).
        package var request: HTTPRequest
        /// Whether the connection may carry another request after this one (RFC 9112 §9.3).
        package var keepAlive: Bool
    }

    /// What the parser is waiting for; the server derives its per-phase deadline from it.
    package enum Phase: Sendable, Equatable {
        /// No byte of the next request has arrived.
        case idle
        /// Part of a request head has arrived.
        case head
        /// The head is complete; body bytes are awaited.
        case body
    }

    private enum State: Sendable {
        case head
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers(bytes: Int)
        case failed(HTTPError)
    }

    private struct Head: Sendable {
        var method: HTTPMethod
        var target: String
        var version: HTTPVersion
        var fields: [HTTPHeaders.Field] = []
        var headers = HTTPHeaders()
        var headerBytes = 0
        var keepAlive = true
        var expectContinue = false
    }

    private static let cr: UInt8 = 13
    private static let lf: UInt8 = 10
    private static let maxLeadingEmptyLines = 8

    package let limits: HTTPLimits
    private var buffer: [UInt8] = []
    /// Start of the unconsumed bytes in `buffer`.
    private var position = 0
    /// Where the search for the next CRLF resumes (≥ `position`), so a byte-at-a-time feed stays O(n).
    private var scan = 0
    private var state: State = .head
    private var head: Head?
    private var body: [UInt8] = []
    private var leadingEmptyLines = 0
    private var continueSent = false
    /// Bytes examined or copied so far: the work counted by the linearity tests (a byte-at-a-time
    /// feed must not examine a byte twice).
    package private(set) var steps = 0

    /// Creates a parser with the given limits.
    package init(limits: HTTPLimits = HTTPLimits()) {
        self.limits = limits
    }

    /// Appends bytes received from the peer. Parsing happens in `nextMessage()`.
    package mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Appends bytes received from the peer. Parsing happens in `nextMessage()`.
    package mutating func feed(_ bytes: some Collection<UInt8>) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Bytes fed but not yet consumed by a returned message.
    package var bufferedByteCount: Int { buffer.count - position }

    /// The current phase (for deadlines).
    package var phase: Phase {
        switch state {
        case .head: return (head == nil && position == buffer.count && leadingEmptyLines == 0) ? .idle : .head
        case .failed: return .head
        default: return .body
        }
    }

    /// Whether the request being received asked for `100 Continue` and no body byte has arrived yet.
    /// The server sends the interim response once and then calls `markContinueSent()`.
    package var wantsContinue: Bool {
        guard let head, head.expectContinue, !continueSent, body.isEmpty else { return false }
        switch state {
        case .fixedBody, .chunkSize: return position == buffer.count
        default: return false
        }
    }

    /// Records that the interim `100 Continue` was written.
    package mutating func markContinueSent() { continueSent = true }

    /// Parses as far as the buffered bytes allow.
    /// - Returns: the next complete request, or `nil` when more bytes are needed.
    /// - Throws: `HTTPError` whose `responseStatus` is the answer; the parser then stays failed.
    package mutating func nextMessage() throws(HTTPError) -> Message? {
        do {
            return try step()
        } catch {
            state = .failed(error)
            throw error
        }
    }

    private mutating func step() throws(HTTPError) -> Message? {
        while true {
            switch state {
            case .failed(let error):
                throw error
            case .head:
                let isRequestLine = head == nil
                let limit =
                    isRequestLine ? limits.maxRequestLineBytes : limits.maxHeaderBytes - (head?.headerBytes ?? 0)
                guard let line = try nextLine(limit: limit, tooLong: isRequestLine ? .uriTooLong : .headersTooLarge)
                else { return nil }
                if isRequestLine {
                    if line.isEmpty {
                        // RFC 9112 §2.2: ignore empty lines before the request-line (bounded).
                        leadingEmptyLines += 1
                        if leadingEmptyLines > Self.maxLeadingEmptyLines {
                            throw HTTPError(.badRequest, "too many empty lines before the request line")
                        }
                        continue
                    }
                    head = try parseRequestLine(line)
                } else if line.isEmpty {
                    if let message = try finishHead() { return message }
                } else {
                    try parseFieldLine(line)
                }
            case .fixedBody(let remaining):
                let available = buffer.count - position
                if available == 0 { return nil }
                let take = min(available, remaining)
                body.append(contentsOf: buffer[position..<(position + take)])
                steps += take
                position += take
                scan = position
                if take == remaining { return completeMessage() }
                state = .fixedBody(remaining: remaining - take)
                return nil
            case .chunkSize:
                guard let line = try nextLine(limit: limits.maxChunkLineBytes, tooLong: .badRequest) else {
                    return nil
                }
                let size = try parseChunkSize(line)
                state = size == 0 ? .trailers(bytes: 0) : .chunkData(remaining: size)
            case .chunkData(let remaining):
                let available = buffer.count - position
                if available == 0 { return nil }
                let take = min(available, remaining)
                body.append(contentsOf: buffer[position..<(position + take)])
                steps += take
                position += take
                scan = position
                state = take == remaining ? .chunkDataEnd : .chunkData(remaining: remaining - take)
            case .chunkDataEnd:
                // RFC 9112 §7.1: chunk-data is followed by exactly CRLF.
                if buffer.count - position < 2 {
                    if buffer.count - position == 1 && buffer[position] != Self.cr {
                        throw HTTPError(.badRequest, "chunk data not followed by CRLF")
                    }
                    return nil
                }
                guard buffer[position] == Self.cr, buffer[position + 1] == Self.lf else {
                    throw HTTPError(.badRequest, "chunk data not followed by CRLF")
                }
                position += 2
                scan = position
                state = .chunkSize
            case .trailers(let bytes):
                guard let line = try nextLine(limit: limits.maxHeaderBytes - bytes, tooLong: .headersTooLarge) else {
                    return nil
                }
                if line.isEmpty { return completeMessage() }
                // RFC 9112 §7.1.2: trailer fields are parsed like header fields and then discarded.
                _ = try validateField(line)
                state = .trailers(bytes: bytes + line.count + 2)
            }
        }
    }

    // MARK: Lines

    /// Finds the next CRLF-terminated line starting at `position`, consumes it, and returns its range
    /// (CRLF excluded). Bare CR or LF is an error (RFC 9112 §2.2: we do not accept them as line ends).
    private mutating func nextLine(limit: Int, tooLong: HTTPError.Code) throws(HTTPError) -> Range<Int>? {
        var i = scan
        let end = buffer.count
        while i < end {
            steps += 1
            let byte = buffer[i]
            if byte == Self.cr {
                if i + 1 >= end { break }
                guard buffer[i + 1] == Self.lf else {
                    throw HTTPError(.badRequest, "bare CR at offset \(i - position)")
                }
                if i - position > limit {
                    throw HTTPError(tooLong, "line of \(i - position) bytes over limit \(limit)")
                }
                let line = position..<i
                position = i + 2
                scan = position
                return line
            }
            if byte == Self.lf { throw HTTPError(.badRequest, "bare LF at offset \(i - position)") }
            i += 1
        }
        scan = i
        if i - position > limit { throw HTTPError(tooLong, "line over limit \(limit)") }
        return nil
    }

    // MARK: Head

    private func parseRequestLine(_ line: Range<Int>) throws(HTTPError) -> Head {
        // request-line = method SP request-target SP HTTP-version (RFC 9112 §3)
        var i = line.lowerBound
        while i < line.upperBound && ByteClass.isToken(buffer[i]) { i += 1 }
        guard i > line.lowerBound, i < line.upperBound, buffer[i] == UInt8(ascii: " ") else {
            throw HTTPError(.badRequest, "malformed method")
        }
        let method = HTTPMethod(String(decoding: buffer[line.lowerBound..<i], as: UTF8.self))
        i += 1
        let targetStart = i
        while i < line.upperBound && ByteClass.isTarget(buffer[i]) { i += 1 }
        guard i > targetStart, i < line.upperBound, buffer[i] == UInt8(ascii: " ") else {
            throw HTTPError(.badRequest, "malformed request-target")
        }
        let target = String(decoding: buffer[targetStart..<i], as: UTF8.self)
        i += 1
        let version = try parseVersion(buffer[i..<line.upperBound])
        try checkTargetForm(target, method: method)
        var head = Head(method: method, target: target, version: version)
        head.keepAlive = version.minor >= 1
        return head
    }

    private func parseVersion(_ bytes: ArraySlice<UInt8>) throws(HTTPError) -> HTTPVersion {
        // HTTP-version = "HTTP/" DIGIT "." DIGIT (RFC 9112 §2.3), case-sensitive.
        let prefix: [UInt8] = Array("HTTP/".utf8)
        guard bytes.count == 8, bytes.prefix(5).elementsEqual(prefix) else {
            throw HTTPError(.badRequest, "malformed HTTP-version")
        }
        let s = bytes.startIndex
        let major = bytes[s + 5]
        let dot = bytes[s + 6]
        let minor = bytes[s + 7]
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        guard digits.contains(major), dot == UInt8(ascii: "."), digits.contains(minor) else {
            throw HTTPError(.badRequest, "malformed HTTP-version")
        }
        guard major == UInt8(ascii: "1") else {
            throw HTTPError(.versionNotSupported, "HTTP major version \(major - UInt8(ascii: "0"))")
        }
        // RFC 9110 §2.5: a higher 1.x minor version is answered as the highest we support.
        return minor == UInt8(ascii: "0") ? .http10 : .http11
    }

    private func checkTargetForm(_ target: String, method: HTTPMethod) throws(HTTPError) {
        // RFC 9112 §3.2: origin-form, absolute-form, authority-form (CONNECT), asterisk-form (OPTIONS).
        if method == .connect { throw HTTPError(.notImplemented, "CONNECT is not supported") }
        if target.hasPrefix("/") { return }
        if target == "*" {
            guard method == .options else { throw HTTPError(.badRequest, "asterisk-form outside OPTIONS") }
            return
        }
        let lower = target.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return }
        throw HTTPError(.badRequest, "request-target is not origin-form or absolute-form")
    }

    /// Validates one field line and returns its name and value ranges.
    private func validateField(_ line: Range<Int>) throws(HTTPError) -> (name: Range<Int>, value: Range<Int>) {
        let first = buffer[line.lowerBound]
        if first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            // RFC 9112 §5.2: obs-fold is rejected with 400 in requests.
            throw HTTPError(.badRequest, "obs-fold or whitespace at the start of a field line")
        }
        var i = line.lowerBound
        while i < line.upperBound && ByteClass.isToken(buffer[i]) { i += 1 }
        guard i > line.lowerBound, i < line.upperBound, buffer[i] == UInt8(ascii: ":") else {
            // RFC 9112 §5.1: no whitespace between field name and colon; MUST 400.
            throw HTTPError(.badRequest, "malformed field name")
        }
        let name = line.lowerBound..<i
        i += 1
        var start = i
        var end = line.upperBound
        while start < end && (buffer[start] == 0x20 || buffer[start] == 0x09) { start += 1 }
        while end > start && (buffer[end - 1] == 0x20 || buffer[end - 1] == 0x09) { end -= 1 }
        var j = start
        while j < end {
            guard ByteClass.isFieldValue(buffer[j]) else {
                throw HTTPError(.badRequest, "control character 0x\(String(buffer[j], radix: 16)) in a field value")
            }
            j += 1
        }
        return (name, start..<end)
    }

    private mutating func parseFieldLine(_ line: Range<Int>) throws(HTTPError) {
        guard let count = head?.fields.count else {
            throw HTTPError(.badRequest, "field line before request line")
        }
        let (name, value) = try validateField(line)
        if count >= limits.maxHeaderCount {
            throw HTTPError(.headersTooLarge, "more than \(limits.maxHeaderCount) header fields")
        }
        // Mutated in place through the optional: copying `head` out and back would copy the fields
        // array (copy-on-write with two owners) on every header line.
        head?.headerBytes += line.count + 2
        head?.fields.append(
            HTTPHeaders.Field(
                name: String(decoding: buffer[name], as: UTF8.self),
                value: String(decoding: buffer[value], as: UTF8.self)))
    }

    /// Applies the framing rules once the header section is complete (RFC 9112 §6.3).
    private mutating func finishHead() throws(HTTPError) -> Message? {
        guard var current = head else { throw HTTPError(.badRequest, "missing request line") }
        let headers = HTTPHeaders(fields: current.fields)
        let hosts = headers.values("Host")
        // RFC 9112 §3.2: a 1.1 request without Host, or any request with several, MUST get 400.
        if hosts.count > 1 { throw HTTPError(.badRequest, "more than one Host field") }
        if current.version == .http11 && hosts.isEmpty {
            throw HTTPError(.badRequest, "HTTP/1.1 request without Host")
        }
        if let host = hosts.first, host.utf8.contains(where: { $0 == 0x20 || $0 == 0x09 || $0 == UInt8(ascii: "/") }) {
            throw HTTPError(.badRequest, "malformed Host")
        }

        let lengths = headers.values("Content-Length")
        let encodings = headers.values("Transfer-Encoding")
        var contentLength = 0
        if lengths.count > 1 { throw HTTPError(.badRequest, "more than one Content-Length field") }
        if let length = lengths.first { contentLength = try parseContentLength(length) }
        var chunked = false
        if !encodings.isEmpty {
            // RFC 9112 §6.1: TE in HTTP/1.0 is faulty framing; TE with CL is a smuggling vector.
            if current.version == .http10 { throw HTTPError(.badRequest, "Transfer-Encoding in an HTTP/1.0 request") }
            if !lengths.isEmpty { throw HTTPError(.badRequest, "both Transfer-Encoding and Content-Length") }
            let codings = encodings.flatMap { $0.split(separator: ",") }.map { $0.trimmingOWS() }.filter { !$0.isEmpty }
            guard let last = codings.last, last.asciiCaseInsensitiveEquals("chunked") else {
                // RFC 9112 §6.3 item 4: final coding not chunked in a request → 400.
                throw HTTPError(.badRequest, "Transfer-Encoding does not end with chunked")
            }
            if codings.dropLast().contains(where: { $0.asciiCaseInsensitiveEquals("chunked") }) {
                throw HTTPError(.badRequest, "chunked applied more than once")
            }
            if codings.count > 1 { throw HTTPError(.notImplemented, "unsupported transfer coding") }
            chunked = true
        }

        current.headers = headers
        if current.version == .http11 {
            current.keepAlive = !headers.listContains("Connection", token: "close")
        } else {
            current.keepAlive =
                headers.listContains("Connection", token: "keep-alive")
                && !headers.listContains("Connection", token: "close")
        }
        if let expect = headers["Expect"], current.version == .http11 {
            // RFC 9110 §10.1.1: 100-continue is the only expectation; others may get 417.
            guard expect.asciiCaseInsensitiveEquals("100-continue") else {
                throw HTTPError(.expectationFailed, "unsupported expectation")
            }
            current.expectContinue = true
        }
        head = current
        body = []
        continueSent = false
        if chunked {
            state = .chunkSize
            return nil
        }
        if contentLength > 0 {
            // Reserve at most 1 MiB up front: memory grows with bytes received, not bytes announced.
            body.reserveCapacity(min(contentLength, 1 << 20))
            state = .fixedBody(remaining: contentLength)
            return nil
        }
        return completeMessage()
    }

    /// Content-Length = 1*DIGIT (RFC 9110 §8.6); no sign, no list, no whitespace inside.
    private func parseContentLength(_ text: String) throws(HTTPError) -> Int {
        var value = 0
        var digits = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                throw HTTPError(.badRequest, "Content-Length is not 1*DIGIT")
            }
            digits += 1
            value = value &* 10 &+ Int(byte - UInt8(ascii: "0"))
            if digits > 18 || value > limits.maxBodyBytes {
                throw HTTPError(.bodyTooLarge, "Content-Length over the body limit \(limits.maxBodyBytes)")
            }
        }
        guard digits > 0 else { throw HTTPError(.badRequest, "empty Content-Length") }
        return value
    }

    /// chunk = chunk-size [ chunk-ext ] CRLF (RFC 9112 §7.1); chunk-size = 1*HEXDIG.
    private func parseChunkSize(_ line: Range<Int>) throws(HTTPError) -> Int {
        var i = line.lowerBound
        var value = 0
        let room = limits.maxBodyBytes - body.count
        while i < line.upperBound, let digit = PercentDecoding.hexValue(buffer[i]) {
            // Checked before multiplying, so no limit (even Int.max) lets a long size wrap around to a
            // small one (a framing disagreement with any front proxy: request smuggling).
            guard value <= room / 16 else {
                throw HTTPError(.bodyTooLarge, "chunked body over the body limit \(limits.maxBodyBytes)")
            }
            value = value * 16 + Int(digit)
            if value > room {
                throw HTTPError(.bodyTooLarge, "chunked body over the body limit \(limits.maxBodyBytes)")
            }
            i += 1
        }
        guard i > line.lowerBound else { throw HTTPError(.badRequest, "chunk size is not 1*HEXDIG") }
        // chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )
        while i < line.upperBound && (buffer[i] == 0x20 || buffer[i] == 0x09) { i += 1 }
        if i < line.upperBound {
            guard buffer[i] == UInt8(ascii: ";") else { throw HTTPError(.badRequest, "junk after chunk size") }
            while i < line.upperBound {
                guard ByteClass.isFieldValue(buffer[i]) else {
                    throw HTTPError(.badRequest, "control character in chunk extension")
                }
                i += 1
            }
        }
        return value
    }

    private mutating func completeMessage() -> Message? {
        guard let current = head else { return nil }
        let request = HTTPRequest(
            method: current.method, target: current.target, version: current.version,
            headers: current.headers, body: body)
        head = nil
        body = []
        state = .head
        leadingEmptyLines = 0
        continueSent = false
        return Message(request: request, keepAlive: current.keepAlive)
    }

    /// Drops consumed bytes when cheap (all consumed) or worthwhile (a large consumed prefix).
    private mutating func compact() {
        if position == 0 { return }
        if position == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
            position = 0
            scan = 0
        } else if position >= 16 * 1024 {
            buffer.removeFirst(position)
            scan -= position
            position = 0
        }
    }
}
