import Primitives

/// An address as a person reads it in a headline: the person's own name for it when it is one of
/// their accounts, else the address shortened to its ends (`14E5…KVf3`, `hx87a9…1c2d`). The full
/// address always travels with it (``AddressMention``) for focus, copy and Details.
package enum AddressText {
    /// `14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3` → `14E5…KVf3`; `hx`/`0x` addresses keep
    /// their prefix and four characters (`hx87a9…1c2d`); short strings are returned unchanged.
    package static func short(_ address: String) -> String {
        let head = address.hasPrefix("hx") || address.hasPrefix("cx") || address.hasPrefix("0x") ? 6 : 4
        guard address.count > head + 4 + 2 else { return address }
        return String(address.prefix(head)) + "…" + String(address.suffix(4))
    }
}

/// An address a request names (signer, receiver, account asked for), with what the approval page
/// needs to draw it: the full address in the chain's own format, the short form, the person's name
/// for it (one of their accounts), and the Polkadot identicon colours (Polkadot accounts only).
package struct AddressMention: Sendable, Equatable {
    /// What the address is in the request: `from`, `to`, `account`, `as`.
    package var role: String
    package var address: String
    package var short: String
    package var name: String?
    /// ``PolkadotIdenticon/colours(accountId:)`` for a 32-byte Substrate account, else `nil`.
    package var identicon: [String]?

    package init(role: String, address: String, name: String?, identicon: [String]?) {
        self.role = role
        // Addresses and names can come from a site: shown, never interpreted (DisplayText).
        self.address = DisplayText.visible(address)
        short = AddressText.short(self.address)
        self.name = name.map(DisplayText.visible)
        self.identicon = identicon
    }

    /// The name when the person has one for it, else the short address.
    package var text: String { name ?? short }

    package var json: JSONValue {
        [
            "role": .string(role), "address": .string(address), "short": .string(short),
            "name": name.map(JSONValue.string) ?? .null,
            "identicon": identicon.map { .array($0.map(JSONValue.string)) } ?? .null,
        ]
    }
}
