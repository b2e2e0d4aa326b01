import Primitives
/// The mortality of an extrinsic (`sp_runtime::generic::Era`; polkadot-js `ExtrinsicEra.ts`).
///
/// Encoding: immortal is the single byte `0x00`; mortal is a little-endian `u16` where the low
/// 4 bits give `log2(period) - 1` and the high 12 bits the quantized phase
/// (docs/reference/polkadot-extension.md §2.4). Decoding is strict: a period below 4 or a
/// phase at or above the period is refused, as sp-runtime does.
package enum ExtrinsicEra: Hashable, Sendable {
    /// Valid forever (checked against the genesis hash).
    case immortal
    /// Valid for `period` blocks from the block whose number is `phase` modulo `period`.
    case mortal(period: UInt64, phase: UInt64)

    /// Builds a mortal era the way polkadot-js `MortalEra` does from a current block and a wanted period.
    package static func mortal(current: UInt64, requestedPeriod: UInt64) -> ExtrinsicEra {
        var period: UInt64 = 4
        while period < requestedPeriod && period < 65536 { period <<= 1 }
        let phase = current % period
        let quantize = max(period >> 12, 1)
        return .mortal(period: period, phase: phase / quantize * quantize)
    }

    /// Reads an era from SCALE. - Throws: `invalidEra` for a period < 4 or phase >= period.
    package init(from reader: inout ScaleReader) throws {
        let start = reader.offset
        let first = try reader.peekByte()
        if first == 0 {
            _ = try reader.readByte()
            self = .immortal
            return
        }
        var probe = reader
        let encoded = UInt64(try probe.readU16())
        let period = UInt64(2) << (encoded % 16)
        let quantize = max(period >> 12, 1)
        let phase = (encoded >> 4) * quantize
        guard period >= 4, phase < period else {
            throw ScaleError(
                .invalidEra, "era 0x\(String(encoded, radix: 16)) at offset \(start): period \(period), phase \(phase)")
        }
        reader = probe
        self = .mortal(period: period, phase: phase)
    }

    /// Decodes exactly one era from `bytes` (1 byte immortal, 2 bytes mortal, nothing else).
    package init(bytes: [UInt8]) throws {
        do {
            self = try ScaleReader.decode(bytes) { try ExtrinsicEra(from: &$0) }
        } catch let e as ScaleError where e.code == .trailingBytes || e.code == .truncated {
            throw ScaleError(.invalidEra, "era must be 0x00 or 2 bytes, got \(bytes.count) byte(s)")
        }
    }

    /// Appends the SCALE encoding.
    package func encode(to writer: inout ScaleWriter) {
        switch self {
        case .immortal:
            writer.writeByte(0)
        case .mortal(let period, let phase):
            let tz = UInt64(period.trailingZeroBitCount)
            let low = min(15, max(1, tz > 0 ? tz - 1 : 0))
            let quantize = max(period >> 12, 1)
            let encoded = low | ((phase / quantize) << 4)
            writer.writeU16(UInt16(truncatingIfNeeded: encoded))
        }
    }

    /// The SCALE bytes.
    package var encoded: [UInt8] { ScaleWriter.encode { encode(to: &$0) } }

    /// First block at which a transaction signed at `current` is valid (polkadot-js `MortalEra.birth`).
    package func birth(current: UInt64) -> UInt64 {
        switch self {
        case .immortal: return 0
        case .mortal(let period, let phase):
            guard period > 0 else { return current }  // only a hand-built invalid era; decoded ones have period >= 4
            return (max(current, phase) - phase) / period * period &+ phase
        }
    }

    /// The block from which it is no longer valid (`birth + period`); `nil` when immortal.
    package func death(current: UInt64) -> UInt64? {
        switch self {
        case .immortal: return nil
        case .mortal(let period, _): return birth(current: current) &+ period
        }
    }
}
