import Gateway
import Logging
import PolkadotCodec
import Primitives
import SignerCore
import SigningKeys
import Testing

/// Protocol-level tests without sockets: every message of docs/reference/polkadot-extension.md §1.3 and
/// every error string a dapp can see.
@Suite struct GatewayServiceTests {
    let alice = TestAccounts.alice
    let bob = TestAccounts.bob

    @Test func aSiteThatIsNotConnectedGetsTheNotEnabledErrorForEveryMessage() async throws {
        let service = try await Fixture.service()
        for message in [
            "pub(accounts.list)", "pub(accounts.subscribe)", "pub(metadata.list)", "pub(ping)", "pub(bytes.sign)",
            "pub(extrinsic.sign)", "pub(metadata.provide)", "pub(rpc.listProviders)", "pub(accounts.unsubscribe)",
        ] {
            let reply = try await service.send(message)
            #expect(reply?.body == .error("The source https://dapp.example has not been enabled yet"), "\(message)")
        }
    }

    @Test func authorizationWaitsForAPersonAndOnlyOnePerSite() async throws {
        let service = try await Fixture.service()
        #expect(try await service.send("pub(authorize.tab)", ["origin": "My Dapp"]) == nil)
        let second = try await service.send("pub(authorize.tab)", ["origin": "My Dapp"], id: "r2", session: "session-2")
        #expect(second?.body == .error("The source https://dapp.example has a pending authorization request"))
        let pending = await service.pendingApprovals
        #expect(pending.count == 1)
        guard case .authorize(let request) = pending[0].subject else { Issue.record("not an authorization"); return }
        #expect(request.appName.text == "My Dapp")

        try await service.approve(pending[0].id, accounts: [bob.key])
        #expect(
            try await service.logged()
                == [WireReply(id: "r1", .response(["result": true, "authorizedAccounts": [.string(bob.address)]]))])
        // Connected now: the next enable answers at once.
        let again = try await service.send("pub(authorize.tab)", ["origin": "My Dapp"], id: "r3")
        #expect(again?.body == .response(["result": true, "authorizedAccounts": [.string(bob.address)]]))
    }

    @Test func rejectedAndCancelledAuthorizationsUsePolkadotJsMessages() async throws {
        let clock = TestClock()
        let service = try await Fixture.service(clock: clock, limits: ApprovalLimits(approvalTimeout: .seconds(5)))
        _ = try await service.send("pub(authorize.tab)", ["origin": "A"])
        try await service.reject(try #require(await service.pendingApprovals.first).id)
        #expect(try await service.logged().last?.body == .error("Connection request was rejected by the user."))

        _ = try await service.send("pub(authorize.tab)", ["origin": "B"], source: Fixture.other, session: "session-9")
        clock.advance(.seconds(5))
        await service.tick()
        #expect(
            try await service.logged(source: Fixture.other, session: "session-9").last?.body
                == .error("Connection request was cancelled by the user."))
    }

    @Test func accountsAreOnlyThoseTheSiteMaySeeAndAlwaysCarryType() async throws {
        let service = try await Fixture.service(sites: Fixture.connected([bob.key]))
        let reply = try await service.send("pub(accounts.list)", ["anyType": false])
        #expect(
            reply?.body
                == .response([["address": .string(bob.address), "genesisHash": nil, "name": "Bob", "type": "sr25519"]]))
        // A second site sees none of them.
        let other = try await service.send("pub(accounts.list)", source: Fixture.other, session: "session-2")
        #expect(other?.body == .error("The source https://other.example has not been enabled yet"))
    }

    @Test func subscriptionPushesFirstThenRepliesWithItsIdAndRevocationPushesAnEmptyList() async throws {
        let service = try await Fixture.service(sites: Fixture.connected())
        let reply = try await service.send("pub(accounts.subscribe)", id: "sub1")
        #expect(reply?.body == .response("sub1"))
        let first = try await service.logged()
        #expect(first.count == 1 && first[0].id == "sub1")
        guard case .subscription(let list) = first[0].body, case .array(let items) = list else {
            Issue.record("no push"); return
        }
        #expect(items.count == 1 && items[0]["address"] == .string(alice.address))

        try await service.revoke(Fixture.site)
        #expect(try await service.logged().last == WireReply(id: "sub1", .subscription([])))
        #expect(await service.sites.isEmpty)
    }

    @Test func unsubscribeAnswersWhetherTheSubscriptionExisted() async throws {
        let service = try await Fixture.service(sites: Fixture.connected())
        _ = try await service.send("pub(accounts.subscribe)", id: "sub1")
        #expect(try await service.send("pub(accounts.unsubscribe)", ["id": "sub1"], id: "u1")?.body == .response(true))
        #expect(try await service.send("pub(accounts.unsubscribe)", ["id": "sub1"], id: "u2")?.body == .response(false))
        #expect(
            try await service.send("pub(accounts.unsubscribe)", ["nope": 1], id: "u3")?.body == .error("Bad request"))
    }

    @Test func simpleMessagesAnswerLikePolkadotJs() async throws {
        let service = try await Fixture.service(sites: Fixture.connected())
        #expect(try await service.send("pub(ping)")?.body == .response(true))
        #expect(try await service.send("pub(rpc.listProviders)")?.body == .response(.object([:])))
        #expect(try await service.send("pub(metadata.list)")?.body == .response([]))
        #expect(try await service.send("pub(phishing.redirectIfDenied)")?.body == .response(false))
        #expect(
            try await service.send("pub(rpc.startProvider)", "x")?.body
                == .error("Unable to handle message of type pub(rpc.startProvider)"))
        #expect(
            try await service.send("pri(accounts.create)")?.body
                == .error("Unable to handle message of type pri(accounts.create)"))
    }

    @Test func phishingDenyListIsHonouredWithSubdomains() async throws {
        let service = try await Fixture.service(denied: ["example"])
        #expect(try await service.send("pub(phishing.redirectIfDenied)")?.body == .response(true))
        #expect(
            try await service.send("pub(authorize.tab)", ["origin": "x"])?.body
                == .error("The source https://dapp.example is not allowed to interact with this extension"))
    }

    @Test func extrinsicSigningReturnsTheSignatureAndSignedTransactionAfterApproval() async throws {
        let signer = RecordingSigner()
        let service = try await Fixture.service(sites: Fixture.connected(), signer: signer)
        #expect(try await service.send("pub(extrinsic.sign)", Fixture.transfer) == nil)
        let pending = try #require(await service.pendingApprovals.first)
        try await service.approve(pending.id)
        let reply = try #require(try await service.logged().last)
        #expect(reply.id == "r1")
        guard case .response(let result) = reply.body else { Issue.record("not a response"); return }
        // A real sr25519 signature by //Alice over the payload's signed bytes, and the signed extrinsic.
        let signed = try #require(signer.signedExtrinsics.first)
        let signature = try Hex.decode(try #require(result["signature"]?.stringValue), prefix: .required)
        #expect(signature.count == 65 && signature.first == 0x01)
        let alicePublic = try Hex.decode(alice.key, prefix: .required)
        #expect(
            KeyScheme.sr25519.verify(
                signature: Array(signature.dropFirst()), message: signed.prepared.signing.signedBytes,
                signer: alicePublic))
        let tx = try Hex.decode(try #require(result["signedTransaction"]?.stringValue), prefix: .required)
        #expect(tx.count > 100 && Array(tx[4..<36]) == alicePublic)
        #expect(signer.signedExtrinsics.count == 1)
    }

    @Test func signedTransactionIsOmittedUnlessAskedFor() async throws {
        let service = try await Fixture.service(mode: .automatic, sites: Fixture.connected())
        var payload = Fixture.transfer
        if case .object(var o) = payload { o["withSignedTransaction"] = false; payload = .object(o) }
        let reply = try #require(try await service.send("pub(extrinsic.sign)", payload))
        guard case .response(let result) = reply.body else { Issue.record("not a response"); return }
        #expect(result["signedTransaction"] == nil && result["signature"] != nil)
    }

    @Test func rejectingASignatureAnswersCancelled() async throws {
        let signer = RecordingSigner()
        let service = try await Fixture.service(sites: Fixture.connected(), signer: signer)
        _ = try await service.send(
            "pub(bytes.sign)", ["address": .string(alice.address), "data": "hi", "type": "bytes"])
        try await service.reject(try #require(await service.pendingApprovals.first).id)
        #expect(try await service.logged().last == WireReply(id: "r1", .error("Cancelled")))
        #expect(await signer.signedMessages.isEmpty)
    }

    @Test func messagesAreSignedWrappedAndAnAddressWithAnotherPrefixStillMatches() async throws {
        let signer = RecordingSigner()
        let service = try await Fixture.service(mode: .automatic, sites: Fixture.connected(), signer: signer)
        let request: JSONValue = [
            "address": .string(TestAccounts.alicePolkadot), "data": "0x68656c6c6f", "type": "bytes",
        ]
        let reply = try #require(try await service.send("pub(bytes.sign)", request))
        guard case .response(let result) = reply.body else { Issue.record("not a response: \(reply)"); return }
        #expect(result["signature"]?.stringValue?.count == 130)
        #expect(await signer.signedMessages == [Array("<Bytes>hello</Bytes>".utf8)])
    }

    @Test func anAccountTheSiteMayNotUseIsRefusedBeforeAnyPrompt() async throws {
        let service = try await Fixture.service(sites: Fixture.connected([alice.key]))
        for address in [bob.address, "5Unknown", "not an address"] {
            let reply = try await service.send("pub(bytes.sign)", ["address": .string(address), "data": "x"])
            #expect(reply?.body == .error("Unable to find keypair"))
            var payload = Fixture.transfer
            if case .object(var o) = payload { o["address"] = .string(address); payload = .object(o) }
            #expect(try await service.send("pub(extrinsic.sign)", payload)?.body == .error("Unable to find keypair"))
        }
        #expect(await service.pendingApprovals.isEmpty)
    }

    @Test func malformedSigningRequestsAreBadRequestsNotCrashes() async throws {
        let service = try await Fixture.service(sites: Fixture.connected())
        for request: JSONValue in [nil, "x", 5, [], ["address": 5], ["address": .string(alice.address)]] {
            #expect(try await service.send("pub(extrinsic.sign)", request)?.body != nil)
            #expect(try await service.send("pub(bytes.sign)", request)?.body != nil)
        }
        #expect(await service.pendingApprovals.isEmpty)
    }

    @Test func metadataIsStoredOnlyAfterApprovalAndRejectAnswersRejected() async throws {
        let service = try await Fixture.service(sites: Fixture.connected())
        let genesis = "0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3"
        let def: JSONValue = [
            "chain": "Polkadot", "genesisHash": .string(genesis), "specVersion": 2_000_000, "tokenSymbol": "DOT",
            "tokenDecimals": 10, "ss58Format": 0, "types": [:], "icon": "polkadot",
        ]
        #expect(try await service.send("pub(metadata.provide)", def) == nil)
        let first = try #require(await service.pendingApprovals.first)
        guard case .adapter(let proposal) = first.subject, proposal.kind == "metadata" else {
            Issue.record("not metadata")
            return
        }
        #expect(proposal.summary.contains { $0.value == "spec <unknown> → 2000000 for Polkadot" })
        try await service.reject(first.id)
        #expect(try await service.logged().last?.body == .error("Rejected"))
        #expect(try await service.send("pub(metadata.list)", id: "l1")?.body == .response([]))

        _ = try await service.send("pub(metadata.provide)", def, id: "r2")
        try await service.approve(try #require(await service.pendingApprovals.first).id)
        #expect(try await service.logged().last == WireReply(id: "r2", .response(true)))
        #expect(
            try await service.send("pub(metadata.list)", id: "l2")?.body
                == .response([["genesisHash": .string(genesis), "specVersion": 2_000_000]]))
        for bad: JSONValue in [
            ["genesisHash": "0x12", "specVersion": 1], ["genesisHash": .string(genesis), "specVersion": -1],
        ] {
            #expect(try await service.send("pub(metadata.provide)", bad, id: "b")?.body == .error("Bad request"))
        }
    }

    @Test func pendingRequestsAreBoundedPerSiteAndInTotal() async throws {
        let limits = ApprovalLimits(maxPendingPerSource: 2, maxPendingTotal: 3)
        let service = try await Fixture.service(limits: limits, sites: Fixture.connected())
        let request: JSONValue = ["address": .string(alice.address), "data": "x"]
        #expect(try await service.send("pub(bytes.sign)", request, id: "a") == nil)
        #expect(try await service.send("pub(bytes.sign)", request, id: "b") == nil)
        #expect(
            try await service.send("pub(bytes.sign)", request, id: "c")?.body
                == .error("Too many pending requests. Try again later."))
    }

    @Test func expiredSigningRequestsAnswerCancelled() async throws {
        let clock = TestClock()
        let service = try await Fixture.service(
            clock: clock, limits: ApprovalLimits(approvalTimeout: .seconds(30)), sites: Fixture.connected())
        _ = try await service.send("pub(bytes.sign)", ["address": .string(alice.address), "data": "x"])
        clock.advance(.seconds(29))
        await service.tick()
        #expect(await service.pendingApprovals.count == 1)
        clock.advance(.seconds(1))
        await service.tick()
        #expect(await service.pendingApprovals.isEmpty)
        #expect(try await service.logged().last == WireReply(id: "r1", .error("Cancelled")))
    }

    @Test func aTabThatGoesAwayTakesItsRequestsWithIt() async throws {
        let clock = TestClock()
        let service = try await Fixture.service(clock: clock, sites: Fixture.connected())
        _ = try await service.send("pub(bytes.sign)", ["address": .string(alice.address), "data": "x"])
        _ = try await service.send("pub(accounts.subscribe)", id: "s", session: "session-2")
        await service.closeSession("session-1", source: Fixture.site)
        #expect(await service.pendingApprovals.isEmpty)
        // An idle session (no stream, no request) is dropped after the idle timeout.
        clock.advance(.seconds(61))
        await service.tick()
        try await service.revoke(Fixture.site)  // must not push into a dropped session
        #expect(try await service.logged(session: "session-2").isEmpty)
    }

    @Test func aSessionCannotBeUsedByAnotherSite() async throws {
        let service = try await Fixture.service(sites: Fixture.connected())
        _ = try await service.send("pub(ping)")
        await #expect(throws: GatewayError(.sessionMismatch, "")) {
            _ = try await service.send("pub(ping)", source: Fixture.other)
        }
        await #expect(throws: GatewayError(.sessionMismatch, "")) {
            _ = try await service.keptEvents(
                for: ClientIdentity(source: Fixture.other, session: "session-1"), after: nil)
        }
    }

    @Test func automaticModeApprovesAtOnceWithEveryAccount() async throws {
        let service = try await Fixture.service(mode: .automatic)
        let reply = try await service.send("pub(authorize.tab)", ["origin": "x"])
        #expect(
            reply?.body
                == .response(["result": true, "authorizedAccounts": [.string(alice.address), .string(bob.address)]]))
    }

    @Test func eventIdsResumeOnlyWithinTheSameServerRun() async throws {
        let service = try await Fixture.service(sites: Fixture.connected())
        _ = try await service.send("pub(accounts.subscribe)", id: "s1")
        try await service.setAccounts(Fixture.site, accounts: [bob.key])
        let events = try await service.keptEvents(
            for: ClientIdentity(source: Fixture.site, session: "session-1"), after: nil)
        #expect(events.map(\.eventID) == ["srv1.1", "srv1.2"])
        #expect(service.sequence(ofEventID: "srv1.1") == 1)
        #expect(service.sequence(ofEventID: "old.7") == nil)
        #expect(service.sequence(ofEventID: "garbage") == nil)
        let after = try await service.keptEvents(
            for: ClientIdentity(source: Fixture.site, session: "session-1"), after: 1)
        #expect(
            after.count == 1
                && after[0].reply.body
                    == .subscription([
                        ["address": .string(bob.address), "genesisHash": nil, "name": "Bob", "type": "sr25519"]
                    ])
        )
    }
}

@Suite struct GatewayReconcileTests {
    @Test func authorizationsChangedElsewhereReachOpenTabs() async throws {
        let service = try await Fixture.service(sites: Fixture.connected())
        _ = try await service.send("pub(accounts.subscribe)", id: "s1")
        // Revision 1 is the stored site the service loaded; later ones come from another process.
        await service.reconcile(
            with: AuthorizationChanges(changes: [.init(source: Fixture.site, site: nil, revision: 2)], revision: 2))
        #expect(try await service.logged().last == WireReply(id: "s1", .subscription([])))
        #expect(await service.sites.isEmpty)
        let bob = Fixture.connected([TestAccounts.bob.key])[0]
        let granted = AuthorizationChanges(changes: [.init(source: Fixture.site, site: bob, revision: 3)], revision: 3)
        await service.reconcile(with: granted)
        guard case .subscription(.array(let list))? = try await service.logged().last?.body else {
            Issue.record("no push"); return
        }
        #expect(list.first?["address"] == .string(TestAccounts.bob.address))
        let before = try await service.logged().count
        await service.reconcile(with: granted)
        // An older change than memory holds is ignored too.
        await service.reconcile(
            with: AuthorizationChanges(changes: [.init(source: Fixture.site, site: nil, revision: 2)], revision: 3))
        #expect(try await service.logged().count == before)
        #expect(await service.sites == [bob])
    }
}

@Suite struct GatewaySessionBoundTests {
    @Test func newSessionsBeyondTheBoundAreRefusedUntilIdleOnesExpire() async throws {
        let clock = TestClock()
        var options = GatewayOptions(sessionIdleTimeout: .seconds(60))
        options.maxSessions = 2
        let service = try await GatewayService(
            options: options, signer: RecordingSigner(), metadata: InMemoryMetadataRegistry(),
            persistence: InMemoryAuthorizations(), clock: clock, serverID: "srv1",
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        _ = try await service.send("pub(ping)", session: "session-a")
        _ = try await service.send("pub(ping)", session: "session-b")
        await #expect(throws: GatewayError(.tooManySessions, "")) {
            _ = try await service.send("pub(ping)", session: "session-c")
        }
        // Existing sessions keep working.
        #expect(try await service.send("pub(ping)", session: "session-a") != nil)
        clock.advance(.seconds(61))
        await service.tick()
        #expect(try await service.send("pub(ping)", session: "session-c") != nil)
    }
}
