/// A Merlin transcript (merlin 3.0 / protocol label `Merlin v1.0`; docs/reference/crypto.md §2.3): the
/// Fiat–Shamir hashing that schnorrkel (sr25519) uses for signing, verification and HDKD.
///
/// Security: deterministic; constant-time in the data. Messages must be shorter than 2^32 bytes
/// (Merlin's own limit); longer ones are rejected by `KeyError.badLength` at the public entry points.
struct MerlinTranscript {
    private(set) var strobe: Strobe128

    /// STROBE after `init("Merlin v1.0")`, computed once (every transcript starts from it).
    private static let merlinBase: Strobe128 = {
        var protocolLabel = "Merlin v1.0"
        return protocolLabel.withUTF8 { Strobe128(protocolLabel: UnsafeRawBufferPointer($0)) }
    }()

    init(_ label: String) {
        strobe = MerlinTranscript.merlinBase
        append("dom-sep", label)
    }

    /// A transcript continuing from a saved state (for cached constant prefixes).
    init(resuming strobe: Strobe128) { self.strobe = strobe }

    mutating func append(_ label: String, _ message: String) {
        var m = message
        m.withUTF8 { append(label, UnsafeRawBufferPointer($0)) }
    }

    mutating func append(_ label: String, _ message: [UInt8]) {
        message.withUnsafeBytes { append(label, $0) }
    }

    mutating func append(_ label: String, _ message: UnsafeRawBufferPointer) {
        var l = label
        l.withUTF8 { strobe.metaAD(UnsafeRawBufferPointer($0), more: false) }
        var len = UInt32(truncatingIfNeeded: message.count).littleEndian
        withUnsafeBytes(of: &len) { strobe.metaAD($0, more: true) }
        strobe.ad(message, more: false)
    }

    mutating func appendU64(_ label: String, _ value: UInt64) {
        var le = value.littleEndian
        withUnsafeBytes(of: &le) { append(label, $0) }
    }

    mutating func challengeBytes(_ label: String, into out: UnsafeMutableRawBufferPointer) {
        var l = label
        l.withUTF8 { strobe.metaAD(UnsafeRawBufferPointer($0), more: false) }
        var len = UInt32(truncatingIfNeeded: out.count).littleEndian
        withUnsafeBytes(of: &len) { strobe.metaAD($0, more: true) }
        strobe.prf(into: out, more: false)
    }

    mutating func challengeBytes(_ label: String, count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        out.withUnsafeMutableBytes { challengeBytes(label, into: $0) }
        return out
    }

    /// `build_rng()`: a builder over a clone of the state; the transcript itself is unchanged.
    func buildRng() -> TranscriptRngBuilder { TranscriptRngBuilder(strobe: strobe) }
}
