import SigningKeys

/// The Polkadot identicon: the 19 coloured circles polkadot-js (`@polkadot/ui-shared`,
/// `icons/polkadot.ts`, after paritytech/oo7's polkadot-identicon) and Talisman draw for an account,
/// so a person recognises an address here as in their other wallets.
///
/// The colours follow from BLAKE2b-512 of the account id minus BLAKE2b-512 of 32 zero bytes (byte by
/// byte, mod 256): bytes 30–31 pick one of seven schemes, byte 28 its rotation, byte 29 the
/// saturation, and every byte a colour of the palette. Integer arithmetic only. The circles' positions
/// are fixed; the approval page draws them as SVG (`public/ui/app.js`, `identicon`).
package enum PolkadotIdenticon {
    private struct Scheme {
        let frequency: Int
        let colours: [Int]
    }

    /// The schemes in polkadot-js order (target, cube, quazar, flower, cyclic, vmirror, hmirror).
    private static let schemes: [Scheme] = [
        Scheme(frequency: 1, colours: [0, 28, 0, 0, 28, 0, 0, 28, 0, 0, 28, 0, 0, 28, 0, 0, 28, 0, 1]),
        Scheme(frequency: 20, colours: [0, 1, 3, 2, 4, 3, 0, 1, 3, 2, 4, 3, 0, 1, 3, 2, 4, 3, 5]),
        Scheme(frequency: 16, colours: [1, 2, 3, 1, 2, 4, 5, 5, 4, 1, 2, 3, 1, 2, 4, 5, 5, 4, 0]),
        Scheme(frequency: 32, colours: [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 3]),
        Scheme(frequency: 32, colours: [0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6]),
        Scheme(frequency: 128, colours: [0, 1, 2, 3, 4, 5, 3, 4, 2, 0, 1, 6, 7, 8, 9, 7, 8, 6, 10]),
        Scheme(frequency: 128, colours: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 8, 6, 7, 5, 3, 4, 2, 11]),
    ]

    private static let zero = Blake2b.hash512([UInt8](repeating: 0, count: 32))

    /// The fill of each of the 19 inner circles (CSS colours: `hsl(h, s%, l%)`, `#444` or
    /// `transparent`), in the order of polkadot-js's circle positions. The outer circle is `#eee`.
    package static func colours(accountId: [UInt8]) -> [String] {
        let hash = Blake2b.hash512(accountId)
        let id = zip(hash, zero).map { Int($0) &+ 256 &- Int($1) }.map { $0 % 256 }
        let total = schemes.reduce(0) { $0 + $1.frequency }
        let d = (id[30] + id[31] * 256) % total
        let rotation = (id[28] % 6) * 3
        let saturation = ((id[29] * 70 / 256 + 26) % 80) + 30
        var cumulative = 0
        let scheme =
            schemes.first {
                cumulative += $0.frequency
                return d < cumulative
            } ?? schemes[schemes.count - 1]
        let palette = id.enumerated().map { i, x -> String in
            let b = (x + (i % 28) * 58) % 256
            if b == 0 { return "#444" }
            if b == 255 { return "transparent" }
            let hue = (b % 64) * 360 / 64
            let lightness = [53, 15, 35, 75][b / 64]
            return "hsl(\(hue), \(saturation)%, \(lightness)%)"
        }
        return (0..<19).map { i in palette[scheme.colours[i < 18 ? (i + rotation) % 18 : 18]] }
    }
}
