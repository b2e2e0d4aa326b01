/// Writes the Prometheus text exposition format 0.0.4
/// (prometheus.io/docs/instrumenting/exposition_formats, "Text-based format"): `# HELP` and
/// `# TYPE` lines, then one sample per line, `name{label="value",…} value`.
///
/// Escaping (same document): label values escape `\` as `\\`, `"` as `\"` and a line feed as
/// `\n`; HELP text escapes `\` and line feed. Metric and label names are ours (constants matching
/// `[a-zA-Z_:][a-zA-Z0-9_:]*`), never taken from input. Values: integers without a fraction,
/// `+Inf`/`-Inf`/`NaN` spelled as the format says.
package struct PrometheusText: Sendable {
    /// The `Content-Type` of the format.
    package static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// A metric's type (`# TYPE`).
    package enum Kind: String, Sendable {
        case counter
        case gauge
        case histogram
    }

    /// The text so far.
    package private(set) var text = ""

    package init() {}

    /// Starts a family: its `# HELP` and `# TYPE` lines.
    package mutating func family(_ name: String, _ kind: Kind, help: String) {
        text += "# HELP \(name) \(Self.escapeHelp(help))\n# TYPE \(name) \(kind.rawValue)\n"
    }

    /// One sample line.
    package mutating func sample(_ name: String, _ labels: [(String, String)] = [], _ value: Double) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.0)=\"\(Self.escapeLabelValue($0.1))\"" }.joined(separator: ",") + "}"
        }
        text += " " + Self.format(value) + "\n"
    }

    /// One sample line with an integer value.
    package mutating func sample(_ name: String, _ labels: [(String, String)] = [], _ value: UInt64) {
        sample(name, labels, Double(value))
    }

    /// The samples of a histogram family (`_bucket` with cumulative counts and `le`, `_sum`, `_count`).
    package mutating func histogram(_ name: String, _ labels: [(String, String)], _ histogram: Histogram) {
        for (bound, count) in histogram.cumulativeBuckets {
            sample(name + "_bucket", labels + [("le", Self.format(bound))], count)
        }
        sample(name + "_sum", labels, histogram.sum)
        sample(name + "_count", labels, histogram.count)
    }

    /// `\` → `\\`, `"` → `\"`, line feed → `\n`.
    package static func escapeLabelValue(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for character in value.unicodeScalars {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// `\` → `\\`, line feed → `\n`.
    package static func escapeHelp(_ value: String) -> String {
        value.replacingAll("\\", "\\\\").replacingAll("\n", "\\n")
    }

    /// A sample value: `+Inf`, `-Inf`, `NaN`, an integer without fraction, else Swift's shortest
    /// round-tripping decimal (which Go's `strconv.ParseFloat` reads).
    package static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value == .infinity { return "+Inf" }
        if value == -.infinity { return "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}

extension String {
    fileprivate func replacingAll(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
