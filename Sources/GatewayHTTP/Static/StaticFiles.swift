import Glibc
import Primitives

/// A set of files served from memory with strong `ETag`s, `304 Not Modified`, and a precompressed
/// gzip variant when the client accepts it (docs/reference/http-server.md §6 item 3).
///
/// Loading reads regular files only (no symlinks, no dot-files), bounded by `maxFileBytes` and
/// `maxTotalBytes`; after that no file system access happens per request.
package struct StaticFiles: Sendable {
    /// The resources by URL path.
    package let resources: [String: StaticResource]

    /// Builds the set from in-memory files (`"/bridge.js": bytes`).
    package init(files: [String: [UInt8]]) {
        var resources: [String: StaticResource] = [:]
        for (path, bytes) in files { resources[path] = StaticResource(path: path, body: bytes) }
        self.resources = resources
    }

    /// Loads every regular file under `directory` (recursively). `public/bridge.js` becomes `/bridge.js`.
    /// - Throws: `HTTPError.fileLoadFailed` when the directory cannot be read, a file is over
    ///   `maxFileBytes`, or the total is over `maxTotalBytes`.
    package init(directory: String, maxFileBytes: Int = 8 << 20, maxTotalBytes: Int = 64 << 20) throws(HTTPError) {
        var files: [String: [UInt8]] = [:]
        var total = 0
        try Self.walk(directory: directory, urlPrefix: "", depth: 0) { (urlPath, filePath) throws(HTTPError) in
            let bytes = try Self.readFile(filePath, limit: maxFileBytes)
            total += bytes.count
            if total > maxTotalBytes {
                throw HTTPError(.fileLoadFailed, "static files exceed \(maxTotalBytes) bytes in total")
            }
            files[urlPath] = bytes
        }
        self.init(files: files)
    }

    /// The resource for a request path (`/` maps to `/index.html`).
    package func resource(for path: String) -> StaticResource? {
        resources[path == "/" ? "/index.html" : path]
    }

    /// The response for `request` if its path names a resource: 200 (gzip when accepted), or 304 when
    /// `If-None-Match` matches. `nil` when there is no such file.
    /// - Parameters:
    ///   - cacheControl: the `Cache-Control` value (default `no-cache`: always revalidate).
    ///   - headers: extra headers added to every response (e.g. `Cross-Origin-Resource-Policy`).
    package func response(
        for request: HTTPRequest, cacheControl: String = "no-cache", headers: HTTPHeaders = [:]
    ) -> HTTPResponse? {
        guard let resource = resource(for: request.path) else { return nil }
        let useGzip = resource.gzipBody != nil && Self.acceptsGzip(request.headers)
        let etag = useGzip ? (resource.gzipETag ?? resource.etag) : resource.etag
        var response = HTTPResponse(status: .ok, headers: headers)
        response.headers.set("ETag", etag)
        response.headers.set("Cache-Control", cacheControl)
        if resource.gzipBody != nil { response.headers.set("Vary", "Accept-Encoding") }
        if let condition = request.headers["If-None-Match"], Self.matches(condition, etag: etag) {
            response.status = .notModified
            return response
        }
        response.headers.set("Content-Type", resource.contentType)
        response.headers.set("X-Content-Type-Options", "nosniff")
        if useGzip, let packed = resource.gzipBody {
            response.headers.set("Content-Encoding", "gzip")
            response.body = packed
        } else {
            response.body = resource.body
        }
        return response
    }

    /// Whether `Accept-Encoding` allows gzip: `gzip` or `*` listed with q > 0 (RFC 9110 §12.5.3).
    static func acceptsGzip(_ headers: HTTPHeaders) -> Bool {
        var gzip: Bool?
        var star: Bool?
        for value in headers.values("Accept-Encoding") {
            for element in value.split(separator: ",") {
                let parts = element.split(separator: ";")
                guard let coding = parts.first?.trimmingOWS() else { continue }
                var allowed = true
                for parameter in parts.dropFirst() {
                    let p = parameter.trimmingOWS()
                    if p.lowercased().hasPrefix("q=") {
                        let q = p.dropFirst(2)
                        allowed = !(q.allSatisfy { $0 == "0" || $0 == "." } && !q.isEmpty)
                    }
                }
                if coding.asciiCaseInsensitiveEquals("gzip") || coding.asciiCaseInsensitiveEquals("x-gzip") {
                    gzip = allowed
                } else if coding == "*" {
                    star = allowed
                }
            }
        }
        return gzip ?? star ?? false
    }

    /// `If-None-Match` evaluation with weak comparison (RFC 9110 §13.1.2).
    static func matches(_ condition: String, etag: String) -> Bool {
        let ours = etag.hasPrefix("W/") ? String(etag.dropFirst(2)) : etag
        for element in condition.split(separator: ",") {
            var tag = element.trimmingOWS()
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if tag == ours { return true }
        }
        return false
    }

    // MARK: Loading

    private static func walk(
        directory: String, urlPrefix: String, depth: Int,
        visit: (String, String) throws(HTTPError) -> Void
    ) throws(HTTPError) {
        guard depth < 16 else { throw HTTPError(.fileLoadFailed, "directory tree too deep at \(directory)") }
        guard let dir = opendir(directory) else {
            throw HTTPError(.fileLoadFailed, "cannot open directory \(directory): \(Socket.errorName(errno))")
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            names.append(name)
        }
        for name in names.sorted() {
            let filePath = directory + "/" + name
            var info = stat()
            guard lstat(filePath, &info) == 0 else { continue }
            let kind = info.st_mode & S_IFMT
            if kind == S_IFDIR {
                try walk(directory: filePath, urlPrefix: urlPrefix + "/" + name, depth: depth + 1, visit: visit)
            } else if kind == S_IFREG {
                try visit(urlPrefix + "/" + name, filePath)
            }
        }
    }

    private static func readFile(_ path: String, limit: Int) throws(HTTPError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw HTTPError(.fileLoadFailed, "cannot open \(path): \(Socket.errorName(errno))") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw HTTPError(.fileLoadFailed, "cannot read \(path): \(Socket.errorName(errno))")
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > limit { throw HTTPError(.fileLoadFailed, "\(path) is over \(limit) bytes") }
        }
        return bytes
    }
}
