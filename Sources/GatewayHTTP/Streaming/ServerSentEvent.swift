/// One Server-Sent Event (WHATWG HTML §9.2 "Server-sent events"). Serialising never produces a line
/// break inside a field: `data` is split into one `data:` line per line, and CR/LF in `id` or `event`
/// are removed, so event content cannot forge other events.
package struct ServerSentEvent: Sendable, Equatable {
    /// The event id the browser sends back as `Last-Event-ID` when it reconnects.
    package var id: String?
    /// The event type (`message` when nil).
    package var event: String?
    /// The payload; may contain newlines.
    package var data: String
    /// The reconnection delay the client should use, in milliseconds.
    package var retryMilliseconds: Int?

    package init(id: String? = nil, event: String? = nil, data: String, retryMilliseconds: Int? = nil) {
        self.id = id
        self.event = event
        self.data = data
        self.retryMilliseconds = retryMilliseconds
    }

    /// The wire form, ending with the blank line that dispatches the event.
    package var serialized: [UInt8] {
        var out = ""
        if let id { out += "id: \(Self.singleLine(id))\n" }
        if let event { out += "event: \(Self.singleLine(event))\n" }
        if let retryMilliseconds, retryMilliseconds >= 0 { out += "retry: \(retryMilliseconds)\n" }
        var line = ""
        var previousCR = false
        for scalar in data.unicodeScalars {
            if scalar == "\r" {
                out += "data: \(line)\n"
                line = ""
                previousCR = true
                continue
            }
            if scalar == "\n" {
                if !previousCR { out += "data: \(line)\n" }
                line = ""
                previousCR = false
                continue
            }
            previousCR = false
            line.unicodeScalars.append(scalar)
        }
        // The last line, empty after a trailing CR or LF: WHATWG joins data lines with LF, so a
        // trailing line break in `data` needs this empty `data:` line to survive.
        out += "data: \(line)\n"
        out += "\n"
        return Array(out.utf8)
    }

    /// A comment line (`: text`), ignored by clients; used for heartbeats.
    static func comment(_ text: String) -> [UInt8] {
        Array(": \(singleLine(text))\n\n".utf8)
    }

    private static func singleLine(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0 != "\r" && $0 != "\n" && $0 != "\0" }.map(Character.init))
    }
}
