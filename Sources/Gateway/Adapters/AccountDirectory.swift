/// Where the gateway learns which accounts exist; implemented over the keystore by the `sigil`
/// executable, and in memory by tests. Never hands out key material.
public protocol AccountDirectory: Sendable {
    /// Every account that may be offered to sites, in display order.
    func accounts() async -> [GatewayAccount]
    /// The account key (`0x…` public key) an address stands for, whatever its SS58 prefix; `nil`
    /// when the address is malformed. Untrusted input: must not trap.
    func accountKey(forAddress address: String) -> String?
}
