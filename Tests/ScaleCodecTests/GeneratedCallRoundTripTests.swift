import Testing

@testable import ScaleCodec

/// Every call of every pallet, with generated arguments: decode, re-encode, compare.
@Suite struct GeneratedCallRoundTripTests {
    // The time limit guards against a hang; it is not a performance assertion.
    @Test(.timeLimit(.minutes(5)), arguments: [
        "polkadot-v15.scale", "kusama-v15.scale", "asset-hub-polkadot-v15.scale", "polkadot-v14.scale",
        "polkadot-v16.scale",
    ])
    func everyCallVariantRoundTripsWithGeneratedArguments(file: String) throws {
        let md = try CallVectorTests.metadataCache.get(file)
        let callType = try #require(md.runtimeCallType)
        let decoder = ValueDecoder(metadata: md)
        let encoder = ValueEncoder(metadata: md)
        guard case .variant(let pallets) = try md.registry.type(callType).def else {
            Issue.record("RuntimeCall is not an enum")
            return
        }
        var gen = ValueGenerator(registry: md.registry, callType: callType, seed: 0x5EED)
        var callsChecked = 0
        var uncallable = 0
        for pallet in pallets {
            guard pallet.fields.count == 1, case .variant(let calls) = try md.registry.type(pallet.fields[0].type).def
            else {
                continue
            }
            for call in calls {
                for sample in 0..<8 {
                    var w = ScaleWriter()
                    w.writeU8(pallet.index)
                    w.writeU8(call.index)
                    do {
                        for f in call.fields { try gen.write(f.type, depth: 1, to: &w) }
                    } catch is ValueGenerator.Uninhabited {
                        uncallable += 1
                        break
                    }
                    let bytes = w.bytes
                    let decoded: DecodedCall
                    do { decoded = try decoder.decodeCall(bytes) } catch {
                        Issue.record("\(file) \(pallet.name).\(call.name) sample \(sample): \(error)")
                        continue
                    }
                    #expect(decoded.pallet == pallet.name && decoded.name == call.name)
                    let again = try encoder.encode(call: decoded)
                    #expect(again == bytes, "\(file) \(pallet.name).\(call.name) sample \(sample)")
                    callsChecked += 1
                }
            }
        }
        #expect(callsChecked > 1000, "\(file): \(callsChecked) calls")
        #expect(uncallable < 5, "\(file): \(uncallable) calls take an uninhabited argument")
    }
}
