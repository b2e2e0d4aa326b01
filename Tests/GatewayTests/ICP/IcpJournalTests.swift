import Foundation
import ICPCodec
import Journal
import Keystore
import Primitives
import SignerCore
import SigningKeys
import StateStore
import Testing

@testable import Gateway

/// ICRC requests decided through the gateway's approval queue are journaled like every protocol's:
/// an approved call's entry records its `sender_sig` (docs/journal.md), durable before the result
/// leaves; a signature whose entry cannot be stored is withheld.
@Suite struct IcpJournalTests {
    static func icrc(_ gateway: GatewayService) throws -> IcrcService {
        IcrcService(
            registry: try MethodRegistry.standard(), signer: IcpCallSigner(keys: [try IcrcServiceTests.key()]),
            permissions: gateway, approver: gateway, network: nil,
            now: { IcrcServiceTests.now })
    }

    /// Approves every pending request as it appears (the person at the approval page).
    static func approveAll(_ gateway: GatewayService, count: Int) async throws {
        for _ in 0..<count {
            // Each request is queued once the one before it is journaled (a disk sync): wait for it.
            guard await ProtocolSeamTests.eventually({ await !gateway.pendingApprovals.isEmpty }),
                let next = await gateway.pendingApprovals.first
            else { return }
            try await gateway.approve(next.id)
        }
    }

    @Test func anApprovedEnvelopeIsJournaledWithItsSignature() async throws {
        let journal = try JournalPathTests.journal()
        let gateway = try await Fixture.service(journal: journal)
        let icrc = try Self.icrc(gateway)
        let asking = Task {
            _ = await IcrcServiceTests.ask(
                icrc, "icrc25_request_permissions", ["scopes": [["method": "icrc49_call_canister"]]])
            return await IcrcServiceTests.ask(icrc, "sigil_icp_sign_envelopes", try IcrcServiceTests.call())
        }
        try await Self.approveAll(gateway, count: 2)
        let reply = try await asking.value
        let envelopes = try #require(reply["result"]?["envelopes"]?.arrayValue)
        #expect(envelopes.count == 1)
        let bytes = try #require(envelopes.first?["envelope"]?.stringValue.flatMap { Data(base64Encoded: $0) })
        let envelope = try ICPEnvelope(cborBytes: Array(bytes))
        let signature = try #require(envelope.senderSignature)
        #expect(signature.count == 64)
        let entries = try JournalPathTests.entries(journal)
        #expect(entries.map(\.content.method) == ["icrc25_request_permissions", "sigil_icp_sign_envelopes"])
        #expect(entries.allSatisfy { $0.content.protocolName == "icp" })
        let c = try #require(entries.last?.content)
        #expect(c.decision == "approved" && c.origin == IcrcServiceTests.origin)
        #expect(c.result == signature)
        #expect(c.subjectDigest == JournalCodec.hash(envelope.requestId))
        // The account is the sender's principal, as every protocol's entry names its account (a
        // permission names none).
        #expect(c.account == Principal(selfAuthenticating: try IcrcServiceTests.key().derPublicKey).text)
        #expect(c.account == envelope.content.sender.text)
        #expect(entries.first?.content.result == [] && entries.first?.content.account == "")
        #expect(try await journal.verify().isValid)
    }

    @Test func aRejectedCallIsJournaledWithoutASignature() async throws {
        let journal = try JournalPathTests.journal()
        let gateway = try await Fixture.service(journal: journal)
        let icrc = try Self.icrc(gateway)
        let asking = Task {
            _ = await IcrcServiceTests.ask(
                icrc, "icrc25_request_permissions", ["scopes": [["method": "icrc49_call_canister"]]])
            return await IcrcServiceTests.ask(icrc, "sigil_icp_sign_envelopes", try IcrcServiceTests.call())
        }
        try await Self.approveAll(gateway, count: 1)
        _ = await ProtocolSeamTests.eventually { await !gateway.pendingApprovals.isEmpty }
        try await gateway.reject(try #require(await gateway.pendingApprovals.first).id)
        #expect(IcrcServiceTests.code(try await asking.value) == 3001)
        let c = try #require(try JournalPathTests.entries(journal).last?.content)
        #expect(c.decision == "rejected" && c.method == "sigil_icp_sign_envelopes" && c.result.isEmpty)
    }

    @Test func aSignatureWhoseEntryCannotBeStoredIsWithheld() async throws {
        let gateway = try await Fixture.service(mode: .automatic, journal: BrokenJournal())
        let icrc = try Self.icrc(gateway)
        _ = await IcrcServiceTests.ask(
            icrc, "icrc25_request_permissions", ["scopes": [["method": "icrc49_call_canister"]]])
        let reply = await IcrcServiceTests.ask(icrc, "sigil_icp_sign_envelopes", try IcrcServiceTests.call())
        #expect(IcrcServiceTests.code(reply) == 1000)
        #expect(reply["result"] == nil)
        #expect(reply["error"]?["data"]?.stringValue?.contains("could not be journaled") == true)
    }
}
