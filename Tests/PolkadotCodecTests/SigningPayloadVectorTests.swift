import Foundation
import Primitives
import ScaleCodec
import SigilTesting
import Testing

@testable import PolkadotCodec

/// `payloads.json`: every valid payload reproduces byte for byte; every invalid one is refused
/// with its named reason.
@Suite struct SigningPayloadVectorTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let id: String
        let json: [UInt8]
        let fields: [String: String]
        let hashed: Bool
        let chain: String
        var testDescription: String { id }
    }

    struct Invalid: Sendable, CustomTestStringConvertible {
        let id: String
        let json: [UInt8]
        let reason: String
        var testDescription: String { id }
    }

    static var file: [String: Any] { (try? PayloadResources.json("payloads.json")) ?? [:] }

    static let valid: [Vector] = (file["vectors"] as? [[String: Any]] ?? []).compactMap { v in
        guard let id = v["id"] as? String, let p = v["payload"], let json = try? PayloadResources.payloadJSON(p) else {
            return nil
        }
        var fields: [String: String] = [:]
        for k in ["call", "extra", "additional_signed", "signing_payload", "signed_bytes"] {
            fields[k] = v[k] as? String
        }
        return Vector(
            id: id, json: json, fields: fields, hashed: v["hashed"] as? Bool ?? false,
            chain: v["chain"] as? String ?? "")
    }

    static let invalid: [Invalid] = (file["invalid"] as? [[String: Any]] ?? []).compactMap { v in
        guard let id = v["id"] as? String, let p = v["payload"], let json = try? PayloadResources.payloadJSON(p),
            let reason = v["reason"] as? String
        else { return nil }
        return Invalid(id: id, json: json, reason: reason)
    }

    /// The vectors' reason names and our codes.
    static let reasons: [String: PolkadotCodecError.Code] = [
        "ModeWithoutMetadataHash": .modeWithoutMetadataHash, "MetadataHashWithoutMode": .metadataHashWithoutMode,
        "BadMode": .badMode, "InvalidEra": .invalidEra, "BadLength": .badLength,
        "UnsupportedVersion": .unsupportedVersion, "NotHex": .notHex, "Overflow": .overflow,
        "MissingField": .missingField, "ImmortalBlockHash": .immortalBlockHash, "BadAddress": .badAddress,
        "BadAssetId": .badAssetId,
    ]

    @Test func theVectorFileHasEveryCase() {
        #expect(Self.valid.count == 18)
        #expect(Self.invalid.count == 20)
    }

    @Test(arguments: valid)
    func payloadReproducesByteForByte(v: Vector) throws {
        let payload = try SignerPayload(json: v.json)
        let signing = try SigningPayload(payload: payload)
        #expect(Hex.encode(signing.call) == v.fields["call"])
        #expect(Hex.encode(signing.extra) == v.fields["extra"])
        #expect(Hex.encode(signing.additionalSigned) == v.fields["additional_signed"])
        #expect(Hex.encode(signing.bytes) == v.fields["signing_payload"])
        #expect(signing.hashed == v.hashed)
        #expect(Hex.encode(signing.signedBytes) == v.fields["signed_bytes"])
    }

    @Test(arguments: valid.filter { $0.chain == "polkadot-asset-hub" || $0.chain == "polkadot" })
    func payloadReproducesByteForByteWithTheChainMetadata(v: Vector) throws {
        let md = try PayloadResources.metadata(
            v.chain == "polkadot" ? "polkadot-v15.scale" : "asset-hub-polkadot-v15.scale")
        let signing = try SigningPayload(payload: SignerPayload(json: v.json), metadata: md)
        #expect(Hex.encode(signing.bytes) == v.fields["signing_payload"])
        #expect(Hex.encode(signing.signedBytes) == v.fields["signed_bytes"])
    }

    @Test(arguments: invalid)
    func invalidPayloadIsRefusedWithItsNamedReason(v: Invalid) throws {
        let code = try #require(Self.reasons[v.reason], "unknown reason \(v.reason)")
        do {
            let p = try SignerPayload(json: v.json)
            _ = try SigningPayload(payload: p)
            Issue.record("\(v.id) was accepted")
        } catch let e as PolkadotCodecError {
            #expect(e.code == code, "\(v.id): got \(e.code), want \(code) (\(e.reason))")
        }
    }
}

@Suite struct SigningPayloadLayoutTests {
    @Test func aFieldNamedByTwoExtensionsIsEncodedOnceAtItsFirstPosition() throws {
        // CheckVersion and CheckSpecVersion both add specVersion; ChargeTransactionPayment and
        // SkipCheckIfFeeless both add tip (polkadot-js merges the field sets with objectSpread).
        let list =
            "[\"CheckVersion\",\"ChargeTransactionPayment\",\"CheckSpecVersion\",\"SkipCheckIfFeeless\",\"CheckNonce\"]"
        let p = try SignerPayload(json: PayloadFixtures.polkadotA(replacing: "signedExtensions", with: list))
        let s = try SigningPayload(payload: p)
        #expect(Hex.encode(s.extra) == "0x001c")  // tip 0, then nonce 7
        #expect(Hex.encode(s.additionalSigned) == "0x80841e00")  // specVersion once
    }

    @Test func anEmptyExtensionListSignsTheCallAloneAndSaysWhatItIgnored() throws {
        var p = try SignerPayload(json: PayloadFixtures.polkadotA(replacing: "signedExtensions", with: "[]"))
        #expect(try SigningPayload(payload: p).bytes == p.method)
        #expect(try SigningPayload(payload: p).warnings.isEmpty)
        p.tip = 5
        p.mode = 1
        p.metadataHash = Array(repeating: 0x22, count: 32)
        p.assetIdBytes = [0x00, 0x00]
        let s = try SigningPayload(payload: p)
        #expect(s.bytes == p.method)
        #expect(s.warnings.count == 3)
    }

    @Test func exactly256BytesIsSignedRawAnd257IsHashed() throws {
        // method of 256 - 74 bytes with vector A's extensions gives a 256-byte payload
        let a = try SignerPayload(json: Array(PayloadFixtures.polkadotA.utf8))
        let overhead = try SigningPayload(payload: a).bytes.count - a.method.count
        for (length, hashed) in [(256, false), (257, true)] {
            var p = a
            p.method = Array(repeating: 0x41, count: length - overhead)
            let s = try SigningPayload(payload: p)
            #expect(s.bytes.count == length)
            #expect(s.hashed == hashed)
            #expect(s.signedBytes.count == (hashed ? 32 : length))
        }
    }
}
