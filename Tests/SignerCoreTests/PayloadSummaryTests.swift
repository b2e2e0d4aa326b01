import Foundation
import PolkadotCodec
import Primitives
import ScaleCodec
import SigilTesting
import SigningKeys
import Testing

@testable import SignerCore

@Suite struct PayloadSummaryTests {
    @Test func summaryNamesChainMortalityCallAndHash() throws {
        let md = try PayloadResources.metadata("polkadot-v15.scale")
        let json = PayloadFixtures.polkadotA(
            replacing: "method",
            with: "\"0x0503008eaf04151687736326c9fea17e25fc5287613693c912909cb226aa4794f26a480bf22fce733a0b\"")
        let p = try SignerPayload(json: json)
        let s = PayloadSummary(payload: p, signing: try SigningPayload(payload: p, metadata: md), metadata: md)
        #expect(s.chainName == "Polkadot")
        #expect(s.metadataMatches == true)
        #expect(s.validFrom == 22_000_123 && s.validUntil == 22_000_187)
        #expect(s.call?.pallet == "Balances" && s.call?.name == "transfer_keep_alive")
        let text = s.text
        #expect(text.contains("valid from block 22000123 to block 22000187"))
        #expect(text.contains("value: 1,234.5678901234 DOT"))
        #expect(text.contains("dest: Id(14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3)"))
        #expect(text.contains("signer:        15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5"))
        #expect(text.contains("tip:           0 DOT"))
        #expect(text.contains("fee asset:     native token (DOT)"))
        #expect(text.contains("call hash:     0x"))
        let j = s.json
        #expect(j["chain"] == .string("Polkadot"))
        #expect(j["mortality"]?["validUntil"] == .integer(22_000_187))
        #expect(j["call"]?["call"] == .string("transfer_keep_alive"))
    }

    @Test func withoutMetadataTheCallIsNotShownAndSaysWhy() throws {
        let p = try SignerPayload(json: Array(PayloadFixtures.polkadotA.utf8))
        let s = PayloadSummary(payload: p, signing: try SigningPayload(payload: p))
        #expect(s.call == nil)
        #expect(s.text.contains("no metadata for this chain"))
        #expect(s.rows.contains { $0.label == "call" && $0.isWarning })
        #expect(s.callHash == Blake2bCheck.hash256(p.method))
    }

    @Test func aSpecVersionOtherThanTheMetadatasIsFlagged() throws {
        let md = try PayloadResources.metadata("polkadot-v15.scale")
        let p = try SignerPayload(json: PayloadFixtures.polkadotA(replacing: "specVersion", with: "\"0x000f5d99\""))
        let s = PayloadSummary(payload: p, signing: try SigningPayload(payload: p, metadata: md), metadata: md)
        #expect(s.metadataMatches == false)
        #expect(s.warnings.contains { $0.contains("spec version 2000000") })
        #expect(s.rows.contains { $0.label == "spec version" && $0.isWarning && $0.value.contains("MISMATCH") })
        #expect(s.rows.contains { $0.label == "warning" && $0.isWarning })
    }

    @Test func dappStringsInTheSummaryCannotCarryTerminalOrBidiControls() throws {
        let list = #"["CheckNonce","Evil\u001b[2J\u009b\u202e"]"#
        let p = try SignerPayload(json: PayloadFixtures.polkadotA(replacing: "signedExtensions", with: list))
        let s = PayloadSummary(payload: p, signing: try SigningPayload(payload: p))
        // Shown, not interpreted: each escaped (DisplayText).
        #expect(s.text.contains(#"unknown signed extension Evil\u{001B}[2J\u{009B}\u{202E}"#))
        for scalar in s.text.unicodeScalars {
            #expect(
                scalar == "\n" || (scalar.value >= 0x20 && !(0x7F...0x9F).contains(scalar.value)), "\(scalar.value)")
            #expect(scalar != "\u{202E}")
        }
    }

    @Test func immortalAndAssetPaymentsAreShown() throws {
        let md = try PayloadResources.metadata("asset-hub-polkadot-v15.scale")
        let list = "[" + md.signedExtensionIdentifiers.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        var json = PayloadFixtures.polkadotA(replacing: "signedExtensions", with: list)
        json = Array(
            String(decoding: json, as: UTF8.self).replacingOccurrences(
                of: "0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3",
                with: "0x68d56f15f85d3136970ec16946040bc1752654e906147f7e43e9d539d7c3de2f"
            ).utf8)
        let p0 = try SignerPayload(json: json)
        var p = p0
        p.era = .immortal
        p.blockHash = p.genesisHash
        p.assetIdBytes = try Hex.decode("0x0002043205011f", prefix: .required)
        let s = PayloadSummary(payload: p, signing: try SigningPayload(payload: p, metadata: md), metadata: md)
        #expect(s.chainName == "Polkadot Asset Hub")
        #expect(s.text.contains("immortal"))
        #expect(s.text.contains("PalletInstance(50)"))
        #expect(s.text.contains("GeneralIndex(1984)"))
    }

    @Test func providedPropertiesDescribeAnUnknownChain() throws {
        let unknownGenesis = "0x" + String(repeating: "ab", count: 32)
        let p = try SignerPayload(
            json: PayloadFixtures.polkadotA(replacing: "genesisHash", with: "\"\(unknownGenesis)\""))
        let s = PayloadSummary(
            payload: p, signing: try SigningPayload(payload: p),
            provided: ChainProperties(name: "My Chain", ss58Prefix: 42, token: TokenFormat(decimals: 3, symbol: "MYC")))
        #expect(s.chainName == "My Chain")
        #expect(s.signer == "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY")
        #expect(s.text.contains("0 MYC"))
    }

    @Test func theKnownChainTableWinsOverASiteForAKnownGenesis() throws {
        let p = try SignerPayload(json: Array(PayloadFixtures.polkadotA.utf8))  // Polkadot genesis
        let s = PayloadSummary(
            payload: p, signing: try SigningPayload(payload: p),
            provided: ChainProperties(name: "My Chain", ss58Prefix: 42, token: TokenFormat(decimals: 3, symbol: "MYC")))
        #expect(s.chainName == "Polkadot")
        #expect(s.signer == "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5")
        #expect(s.text.contains("0 DOT"))
        #expect(!s.text.contains("0 MYC"))
        #expect(s.warnings.contains { $0.contains("genesis hash is Polkadot") })
    }

    @Test func siteDescriptionsContradictingAKnownGenesisAreWarnedAbout() throws {
        let p = try SignerPayload(json: Array(PayloadFixtures.polkadotA.utf8))  // Polkadot genesis
        let spoofed = ChainProperties(name: "Westend", ss58Prefix: 0, token: TokenFormat(decimals: 13, symbol: "WND"))
        let s = PayloadSummary(payload: p, signing: try SigningPayload(payload: p), provided: spoofed)
        let warning = try #require(s.warnings.first { $0.contains("genesis hash is Polkadot") })
        #expect(warning.contains("name \"Westend\"") && warning.contains("token WND with 13 decimals"))
        #expect(!warning.contains("address prefix"))
        #expect(s.rows.contains { $0.label == "warning" && $0.isWarning && $0.value == warning })
        // The same properties as the table, or none: no warning.
        let same = ChainProperties(name: "Polkadot", ss58Prefix: 0, token: TokenFormat(decimals: 10, symbol: "DOT"))
        for provided in [same, nil] {
            let t = PayloadSummary(payload: p, signing: try SigningPayload(payload: p), provided: provided)
            #expect(!t.warnings.contains { $0.contains("genesis hash is") })
        }
    }
}

enum Blake2bCheck {
    static func hash256(_ b: [UInt8]) -> [UInt8] { Blake2b.hash256(b) }
}

@Suite struct PreparedPayloadTests {
    @Test func preparedPayloadGivesTheSameBytesAsTheStepsAndRefusesBadInput() throws {
        let md = try PayloadResources.metadata("polkadot-v15.scale")
        let json = Array(PayloadFixtures.polkadotA.utf8)
        let prepared = try PreparedPayload(json: json, metadata: md)
        #expect(prepared.signing == (try SigningPayload(payload: SignerPayload(json: json), metadata: md)))
        #expect(prepared.summary.call?.name == "remark")
        #expect(throws: SignerError(.notHex, "")) {
            try PreparedPayload(json: PayloadFixtures.polkadotA(replacing: "method", with: "\"hello\""))
        }
    }
}
