import Primitives

/// polkadot-js `<Bytes>…</Bytes>` message wrapping for `signRaw` (`@polkadot/util` `u8aWrapBytes`,
/// `u8aToU8a`; extension-dapp `wrapBytes`).
///
/// Deterministic; total functions on untrusted input (never trap).
package enum BytesWrapping {
    package static let prefix: [UInt8] = Array("<Bytes>".utf8)
    package static let suffix: [UInt8] = Array("</Bytes>".utf8)
    /// `"\u{19}Ethereum Signed Message:\n"`: messages that start with it are left as they are.
    package static let ethereumPrefix: [UInt8] = Array("\u{19}Ethereum Signed Message:\n".utf8)

    /// `true` when `bytes` starts with `<Bytes>` and ends with `</Bytes>` (length ≥ 15).
    package static func isWrapped(_ bytes: [UInt8]) -> Bool {
        bytes.count >= prefix.count + suffix.count && bytes.starts(with: prefix)
            && bytes.suffix(suffix.count).elementsEqual(suffix)
    }

    /// `u8aWrapBytes`: adds the markers unless already wrapped or Ethereum-prefixed.
    package static func wrap(_ bytes: [UInt8]) -> [UInt8] {
        if isWrapped(bytes) || bytes.starts(with: ethereumPrefix) { return bytes }
        return prefix + bytes + suffix
    }

    /// `u8aUnwrapBytes`: removes the markers when present.
    package static func unwrap(_ bytes: [UInt8]) -> [UInt8] {
        guard isWrapped(bytes) else { return bytes }
        return Array(bytes[prefix.count..<(bytes.count - suffix.count)])
    }

    /// `u8aToU8a` for a dapp's `data` string: `0x` (lower-case x) followed by an even number of hex
    /// digits is hex; anything else is UTF-8 text.
    package static func bytes(fromDappData data: String) -> [UInt8] {
        (try? Hex.decode(data, prefix: .required)) ?? Array(data.utf8)
    }
}
