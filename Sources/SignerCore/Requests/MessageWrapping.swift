/// The bytes `pub(bytes.sign)` actually signs, built exactly as polkadot-js does so that signatures
/// verify the same way (polkadot-js/extension `background/RequestBytesSign.ts` →
/// polkadot-js/common `util/src/u8a/wrap.ts` `u8aWrapBytes`).
///
/// Wrapping in `<Bytes>…</Bytes>` means a message signature can never double as a transaction
/// signature. Deterministic; the input is untrusted and never traps.
package enum MessageWrapping {
    /// `<Bytes>`.
    package static let prefix: [UInt8] = Array("<Bytes>".utf8)
    /// `</Bytes>`.
    package static let suffix: [UInt8] = Array("</Bytes>".utf8)
    /// `\u{19}Ethereum Signed Message:\n`: data carrying it is signed unwrapped.
    package static let ethereumPrefix: [UInt8] = Array("\u{19}Ethereum Signed Message:\n".utf8)

    /// The bytes a `data` field stands for (`u8aToU8a`): a `0x` string of even length and only hex
    /// digits is hex, anything else is UTF-8 text.
    package static func bytes(ofData data: String) -> [UInt8] {
        let utf8 = Array(data.utf8)
        guard utf8.count >= 2, utf8[0] == 0x30, utf8[1] == 0x78 || utf8[1] == 0x58, utf8.count % 2 == 0 else {
            return utf8
        }
        var out: [UInt8] = []
        out.reserveCapacity((utf8.count - 2) / 2)
        var i = 2
        while i < utf8.count {
            guard let hi = hexValue(utf8[i]), let lo = hexValue(utf8[i + 1]) else { return utf8 }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    /// `u8aWrapBytes`: the message unchanged when already wrapped or Ethereum-prefixed, else wrapped.
    package static func wrap(_ message: [UInt8]) -> [UInt8] {
        if isWrapped(message) || message.starts(with: ethereumPrefix) { return message }
        return prefix + message + suffix
    }

    /// Whether `message` starts with `<Bytes>` and ends with `</Bytes>`.
    package static func isWrapped(_ message: [UInt8]) -> Bool {
        message.count >= prefix.count + suffix.count && message.starts(with: prefix)
            && Array(message.suffix(suffix.count)) == suffix
    }

    /// How to show a message to a person: the text if it is printable UTF-8, else `nil`.
    package static func displayText(_ message: [UInt8]) -> String? {
        guard let text = String(validating: message, as: UTF8.self) else { return nil }
        let printable = text.unicodeScalars.allSatisfy {
            $0 == "\n" || $0 == "\t"
                || !($0.properties.generalCategory == .control
                    || $0.properties.generalCategory == .format)
        }
        return printable ? text : nil
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x61...0x66: c - 0x61 + 10
        case 0x41...0x46: c - 0x41 + 10
        default: nil
        }
    }
}
