import Primitives
import Testing

@testable import ScaleCodec

/// `scale.json` vectors: compact integers and extrinsic eras.
@Suite struct CompactAndEraVectorTests {
    static func vectors(_ kind: String) throws -> [[String: Any]] {
        let all = try TestResources.json("scale.json")["vectors"] as? [[String: Any]] ?? []
        return all.filter { $0["kind"] as? String == kind }
    }

    static let errorCodes: [String: ScaleError.Code] = [
        "NonCanonical": .nonCanonical, "Truncated": .truncated, "Overflow": .overflow,
        "TrailingBytes": .trailingBytes, "InvalidEra": .invalidEra,
    ]

    @Test func compactEncodingsMatchEveryVector() throws {
        let vs = try Self.vectors("compact")
        #expect(vs.count >= 20)
        for v in vs {
            let id = v["id"] as? String ?? "?"
            let value = try #require(UInt128(v["value"] as? String ?? ""), "\(id)")
            let expected = try Hex.decode(v["encoded"] as? String ?? "", prefix: .required)
            let encoded = ScaleWriter.encode { $0.writeCompact(value) }
            #expect(encoded == expected, "\(id)")
            #expect(try ScaleReader.decode(expected) { try $0.readCompact() } == value, "\(id)")
        }
    }

    @Test func compactDecodingAcceptsOrRefusesEveryVectorWithItsReason() throws {
        let vs = try Self.vectors("compact_decode")
        #expect(vs.count >= 15)
        for v in vs {
            let id = v["id"] as? String ?? "?"
            let bytes = try Hex.decode(v["encoded"] as? String ?? "", prefix: .required)
            let asU32 = v["type"] as? String == "Compact<u32>"
            let decode = {
                try ScaleReader.decode(bytes) { r -> UInt128 in
                    asU32 ? UInt128(try r.readCompact(as: UInt32.self)) : try r.readCompact()
                }
            }
            if let err = v["expect_error"] as? String {
                let code = try #require(Self.errorCodes[err], "\(id)")
                #expect(throws: ScaleError(code, ""), "\(id)") { try decode() }
            } else {
                #expect(try decode() == UInt128(v["value"] as? String ?? ""), "\(id)")
            }
        }
    }

    @Test func eraEncodingsMatchEveryVector() throws {
        for v in try Self.vectors("era_encode") {
            let id = v["id"] as? String ?? "?"
            let current = UInt64(v["current"] as? Int ?? 0)
            let era = ExtrinsicEra.mortal(current: current, requestedPeriod: UInt64(v["period_requested"] as? Int ?? 0))
            #expect(Hex.encode(era.encoded) == v["encoded"] as? String, "\(id)")
            #expect(
                era == .mortal(period: UInt64(v["period"] as? Int ?? 0), phase: UInt64(v["phase"] as? Int ?? 0)),
                "\(id)")
            #expect(era.birth(current: current) == UInt64(v["birth"] as? Int ?? -1), "\(id)")
            #expect(era.death(current: current) == UInt64(v["death"] as? Int ?? -1), "\(id)")
        }
    }

    @Test func eraDecodingAcceptsOrRefusesEveryVector() throws {
        let vs = try Self.vectors("era_decode")
        #expect(vs.count >= 9)
        for v in vs {
            let id = v["id"] as? String ?? "?"
            let bytes = try Hex.decode(v["encoded"] as? String ?? "", prefix: .required)
            if v["expect_error"] != nil {
                #expect(throws: ScaleError(.invalidEra, ""), "\(id)") { try ExtrinsicEra(bytes: bytes) }
                continue
            }
            let era = try ExtrinsicEra(bytes: bytes)
            if v["immortal"] as? Bool == true {
                #expect(era == .immortal, "\(id)")
            } else {
                let current = UInt64(v["current"] as? Int ?? 0)
                #expect(
                    era == .mortal(period: UInt64(v["period"] as? Int ?? 0), phase: UInt64(v["phase"] as? Int ?? 0)),
                    "\(id)")
                #expect(era.birth(current: current) == UInt64(v["birth"] as? Int ?? -1), "\(id)")
                #expect(era.death(current: current) == UInt64(v["death"] as? Int ?? -1), "\(id)")
                #expect(era.encoded == bytes, "\(id) re-encodes")
            }
        }
    }

    @Test(arguments: ["0x", "0x07", "0x070300"])
    func eraOfWrongSizeIsRefused(hex: String) throws {
        #expect(throws: ScaleError(.invalidEra, "")) { try ExtrinsicEra(bytes: Hex.decode(hex, prefix: .required)) }
    }
}
