/// File extension → `Content-Type`, for the static files we serve.
enum MediaType {
    static func forPath(_ path: String) -> String {
        let ext =
            path.split(separator: "/").last.flatMap { name -> Substring? in
                guard let dot = name.lastIndex(of: ".") else { return nil }
                return name[name.index(after: dot)...]
            }?.lowercased() ?? ""
        switch ext {
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "html", "htm": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "json", "map": return "application/json"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "ico": return "image/x-icon"
        case "txt", "md": return "text/plain; charset=utf-8"
        case "wasm": return "application/wasm"
        case "woff2": return "font/woff2"
        default: return "application/octet-stream"
        }
    }

    static func isCompressible(_ type: String) -> Bool {
        type.hasPrefix("text/") || type.hasPrefix("application/json") || type.hasPrefix("image/svg")
            || type.hasPrefix("application/wasm")
    }
}
