/// A SCALE value decoded through a type registry, shaped for display and re-encoding.
///
/// The tree keeps what a person needs to read a call: accounts as ``account(_:)`` (rendered in
/// the chain's SS58 format by whoever renders, since this module knows no address formats),
/// amounts as ``balance(_:)`` when the field's Rust type is a balance, nested runtime calls as
/// ``call(_:)``, enums by variant name, and byte strings as ``bytes(_:)``. Together with the type
/// id it was decoded as, a value re-encodes to the same bytes (``ValueEncoder``).
package indirect enum ScaleValue: Hashable, Sendable {
    case bool(Bool)
    /// A Rust `char` (Unicode scalar value).
    case char(UInt32)
    case string(String)
    /// Any unsigned integer up to 128 bits, fixed-width or compact.
    case unsigned(UInt128)
    /// Any signed integer up to 128 bits.
    case signed(Int128)
    /// `u256`/`i256` (two's-complement bits for `i256`).
    case wide(UInt256)
    /// `Vec<u8>` or `[u8; N]`.
    case bytes([UInt8])
    /// `Vec<T>`, `[T; N]` or a tuple.
    case sequence([ScaleValue])
    /// A struct: its fields in order.
    case composite([ScaleField])
    /// An enum variant.
    case variant(ScaleVariant)
    /// A `BitVec`: its length in bits and its store bytes as encoded.
    case bitSequence(bitCount: Int, bytes: [UInt8])
    /// An `AccountId32` (32 bytes) or `AccountId20` (20 bytes).
    case account([UInt8])
    /// An amount of the chain's token (a field whose Rust type names a balance).
    case balance(UInt128)
    /// A nested runtime call (`RuntimeCall`).
    case call(DecodedCall)
}
