/// A parsed route pattern (see `Router`). Matching is on raw (still percent-encoded) segments for
/// literals; captured parameters are percent-decoded and a capture that does not decode to UTF-8
/// does not match.
struct RoutePattern: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        case rest
    }

    let segments: [Segment]

    init(_ pattern: String) {
        segments = RoutePattern.segments(of: pattern).map { part in
            if part == "*" { return .rest }
            if part.hasPrefix(":") { return .parameter(String(part.dropFirst())) }
            return .literal(String(part))
        }
    }

    static func segments(of path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
    }

    /// The captured parameters when `path` matches, else `nil`.
    func match(_ path: [Substring]) -> [String: String]? {
        var parameters: [String: String] = [:]
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .rest:
                let rest = path.dropFirst(index).joined(separator: "/")
                guard let decoded = PercentDecoding.decode(rest) else { return nil }
                parameters["*"] = decoded
                return parameters
            case .literal(let literal):
                guard index < path.count, path[index] == literal else { return nil }
            case .parameter(let name):
                guard index < path.count, !path[index].isEmpty, let decoded = PercentDecoding.decode(path[index])
                else { return nil }
                parameters[name] = decoded
            }
        }
        return path.count == segments.count ? parameters : nil
    }
}
