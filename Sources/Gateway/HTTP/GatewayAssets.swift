import Foundation
import GatewayHTTP
import Primitives

/// The userscript and bookmarklet, filled in from their templates in `public/` with the real
/// gateway URL (and, for the userscript, the relay token and the bridge source).
package enum GatewayAssets {
    /// The userscript for this gateway, or `nil` when the templates are missing.
    package static func userscript(files: StaticFiles, endpoints: GatewayEndpoints, relayToken: String) -> [UInt8]? {
        guard let template = files.resource(for: "/sigil.user.js")?.body,
            let bridge = files.resource(for: "/bridge.js")?.body
        else { return nil }
        var text = String(decoding: template, as: UTF8.self)
        text = text.replacingFirst("'__SIGIL_GATEWAY__'", with: JSONValue.string(endpoints.dappBase).encodedText)
        // A public URL on another host (--public-url https://sigil.example): the userscript manager
        // lets GM_xmlhttpRequest reach only the hosts listed by @connect.
        if let host = SiteOrigin(endpoints.dappBase)?.host, !["127.0.0.1", "localhost"].contains(host) {
            let connect = "// @connect      localhost\n"
            text = text.replacingFirst(connect, with: connect + "// @connect      \(host)\n")
        }
        text = text.replacingFirst("'__SIGIL_RELAY_TOKEN__'", with: JSONValue.string(relayToken).encodedText)
        let source = JSONValue.string(String(decoding: bridge, as: UTF8.self)).encodedText
        text = text.replacingFirst("'__SIGIL_BRIDGE_SOURCE__'", with: source)
        return Array(text.utf8)
    }

    /// The bookmarklet (`javascript:` URL) for this gateway.
    package static func bookmarklet(files: StaticFiles, endpoints: GatewayEndpoints) -> String {
        guard let template = files.resource(for: "/bookmarklet.js")?.body else { return "" }
        let text = String(decoding: template, as: UTF8.self).trimmingCharacters(in: " \n\r\t")
        return text.replacingAll("__SIGIL_GATEWAY__", with: endpoints.dappBase)
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }

    func replacingAll(_ target: String, with replacement: String) -> String {
        var out = ""
        var rest = Substring(self)
        while let range = rest.range(of: target) {
            out += rest[..<range.lowerBound]
            out += replacement
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}

extension JSONValue {
    var encodedText: String { String(decoding: encoded(), as: UTF8.self) }
}
