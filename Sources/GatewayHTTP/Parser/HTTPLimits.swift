import Primitives
/// Size limits the parser enforces on every request (docs/reference/http-server.md §6 item 4). Exceeding one is
/// answered with the status named on the field and the connection is closed.
package struct HTTPLimits: Sendable, Equatable {
    /// Longest request line (method, target, version), without CRLF. Over it: 414.
    package var maxRequestLineBytes: Int = 8 * 1024
    /// Largest header section (all field lines, CRLFs included, request line excluded). Over it: 431.
    /// Also bounds the trailer section of a chunked body.
    package var maxHeaderBytes: Int = 16 * 1024
    /// Most header field lines. Over it: 431.
    package var maxHeaderCount: Int = 64
    /// Largest body after chunked decoding. Over it: 413 (checked against `Content-Length` and each
    /// chunk size before the bytes arrive).
    package var maxBodyBytes: Int = 256 * 1024
    /// Longest chunk-size line including chunk extensions. Over it: 400.
    package var maxChunkLineBytes: Int = 1024

    package init(
        maxRequestLineBytes: Int = 8 * 1024, maxHeaderBytes: Int = 16 * 1024, maxHeaderCount: Int = 64,
        maxBodyBytes: Int = 256 * 1024, maxChunkLineBytes: Int = 1024
    ) {
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxBodyBytes = maxBodyBytes
        self.maxChunkLineBytes = maxChunkLineBytes
    }

    /// Throws `invalidConfiguration` when a limit is not positive.
    package func validate() throws(HTTPError) {
        let all = [maxRequestLineBytes, maxHeaderBytes, maxHeaderCount, maxBodyBytes, maxChunkLineBytes]
        if all.contains(where: { $0 <= 0 }) {
            throw HTTPError(.invalidConfiguration, "every HTTPLimits value must be positive")
        }
    }
}
