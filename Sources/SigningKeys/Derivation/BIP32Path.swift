import Primitives
/// A BIP32 derivation path such as `m/44'/74'/0'/0/0` (docs/reference/icon.md §6.2).
///
/// Parsing takes untrusted text and never traps. Grammar: `m` followed by zero to 255 components
/// `/index` or `/index'` (also `h`/`H` for hardened, as BIP32 tools write it); `index` is decimal,
/// without sign or leading zeros, below 2^31. Anything else (spaces, `M`, empty or trailing
/// components, `0x…`, out-of-range numbers) is refused with `KeyError.invalidDerivationPath`.
package struct BIP32Path: Sendable, Hashable, CustomStringConvertible {
    /// One step: a child index below 2^31 and whether it is hardened (index + 2^31 on the wire).
    package struct Component: Sendable, Hashable, CustomStringConvertible {
        /// The index without the hardened bit (0 … 2^31 − 1).
        package let index: UInt32
        package let hardened: Bool

        /// `nil` when `index` ≥ 2^31.
        package init?(index: UInt32, hardened: Bool) {
            guard index < BIP32Path.hardenedOffset else { return nil }
            self.index = index
            self.hardened = hardened
        }

        /// The 32-bit child number BIP32 hashes (`ser32(i)`).
        package var childNumber: UInt32 { hardened ? index | BIP32Path.hardenedOffset : index }

        package var description: String { hardened ? "\(index)'" : "\(index)" }
    }

    /// 2^31: child numbers at or above it are hardened.
    package static let hardenedOffset: UInt32 = 0x8000_0000
    /// BIP32 serializes the depth in one byte.
    package static let maxDepth = 255

    package let components: [Component]

    /// The master key's path, `m`.
    package init() { components = [] }

    /// A path from components. Throws `invalidDerivationPath` beyond 255 components.
    package init(components: [Component]) throws {
        guard components.count <= BIP32Path.maxDepth else {
            throw KeyError(.invalidDerivationPath, "path has \(components.count) components; BIP32 allows 255")
        }
        self.components = components
    }

    /// Parses `m/…`. Throws `invalidDerivationPath` naming the component (never echoing the text).
    package init(_ text: String) throws {
        let utf8 = Array(text.utf8)
        guard utf8.count <= 4096 else { throw KeyError(.invalidDerivationPath, "path longer than 4096 bytes") }
        guard utf8.first == UInt8(ascii: "m") else {
            throw KeyError(.invalidDerivationPath, "path must start with lower-case m")
        }
        let parts = utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard parts[0].count == 1 else {
            throw KeyError(.invalidDerivationPath, "path must start with \"m/\" or be \"m\"")
        }
        var components: [Component] = []
        for (position, part) in parts.dropFirst().enumerated() {
            components.append(try BIP32Path.component(part, position: position + 1))
        }
        try self.init(components: components)
    }

    private static func component(_ part: ArraySlice<UInt8>, position: Int) throws -> Component {
        var digits = part
        var hardened = false
        if let last = digits.last, last == UInt8(ascii: "'") || last == UInt8(ascii: "h") || last == UInt8(ascii: "H") {
            hardened = true
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw KeyError(.invalidDerivationPath, "component \(position) is not a decimal index with an optional '")
        }
        guard digits.count == 1 || digits.first != UInt8(ascii: "0") else {
            throw KeyError(.invalidDerivationPath, "component \(position) has a leading zero")
        }
        var value: UInt64 = 0
        for d in digits { value = value * 10 + UInt64(d - 0x30) }
        guard value < UInt64(hardenedOffset), let component = Component(index: UInt32(value), hardened: hardened)
        else {
            throw KeyError(.invalidDerivationPath, "component \(position) is not below 2^31")
        }
        return component
    }

    /// `m/44'/74'/0'/0/n`, ICON's BIP44 path (coin type 74). Throws for `n` ≥ 2^31.
    package static func icon(index: UInt32) throws -> BIP32Path {
        guard let last = Component(index: index, hardened: false) else {
            throw KeyError(.invalidDerivationPath, "address index must be below 2^31")
        }
        return try BIP32Path(
            components: [
                hard(44), hard(74), hard(0), Component(index: 0, hardened: false), last,
            ].compactMap { $0 })
    }

    private static func hard(_ i: UInt32) -> Component? { Component(index: i, hardened: true) }

    package var description: String { (["m"] + components.map(\.description)).joined(separator: "/") }
}
