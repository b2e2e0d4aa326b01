/// A decoded call: pallet and call as the metadata names them, and the arguments by name.
package struct DecodedCall: Hashable, Sendable {
    /// Pallet name (`Balances`).
    package var pallet: String
    package var palletIndex: UInt8
    /// Call name (`transfer_keep_alive`).
    package var name: String
    package var callIndex: UInt8
    /// Arguments in order.
    package var args: [ScaleField]

    package init(pallet: String, palletIndex: UInt8, name: String, callIndex: UInt8, args: [ScaleField]) {
        self.pallet = pallet
        self.palletIndex = palletIndex
        self.name = name
        self.callIndex = callIndex
        self.args = args
    }
}
