/// A decoded call: pallet and call as the metadata names them, and the arguments by name.
public struct DecodedCall: Hashable, Sendable {
    /// Pallet name (`Balances`).
    public var pallet: String
    public var palletIndex: UInt8
    /// Call name (`transfer_keep_alive`).
    public var name: String
    public var callIndex: UInt8
    /// Arguments in order.
    public var args: [ScaleField]

    public init(pallet: String, palletIndex: UInt8, name: String, callIndex: UInt8, args: [ScaleField]) {
        self.pallet = pallet
        self.palletIndex = palletIndex
        self.name = name
        self.callIndex = callIndex
        self.args = args
    }
}
