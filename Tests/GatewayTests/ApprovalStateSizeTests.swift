import Foundation
import Primitives
import SignerCore
import Testing

@testable import Gateway

/// Issue 24 item 10: one connected site queued 8 ICON calls with 110,000 params each and made
/// `/api/state` 60.7 MB. Rows are capped per request and across the state ("N more", the full
/// text on demand through `/api/details`).
@Suite struct ApprovalStateSizeTests {
    static let params = 30_000

    static func manyParams(_ n: Int, tag: Int) -> JSONValue {
        var params: [(String, JSONValue)] = []
        params.reserveCapacity(n)
        for i in 0..<n { params.append(("p\(i)", .string("value number \(i) of call \(tag)"))) }
        return [
            "version": "0x3", "from": .string(IconGatewayTests.me), "to": "cxb0776ee37f5b45bfaea8cff1d8232fbb6122ec32",
            "value": "0x0", "stepLimit": "0x30d40", "timestamp": "0x5d56f3231f818", "nid": "0x1",
            "nonce": .string("0x\(tag + 1)"),
            "dataType": "call", "data": ["method": "vote", "params": .object(JSONObject(params))],
        ]
    }

    @Test func manyParamRequestsKeepTheStateSmall() async throws {
        let tests = IconGatewayTests()
        let service = try await tests.makeService(mode: .person)
        #expect(try await tests.connect(service, ["id": 1, "method": "bind"], approve: true)["result"] != nil)
        for i in 0..<8 {
            let answer = try await service.send(
                "icon(connect)",
                ["id": .integer(10 + i), "method": "sign", "params": Self.manyParams(Self.params, tag: i)],
                id: "many\(i)", session: "s\(i)")
            #expect(answer == nil, "\(String(describing: answer))")
        }
        let pending = await service.pendingApprovals
        #expect(pending.count == 8)
        let state = await ApprovalState.json(
            service: service, directory: RecordingSigner(), endpoints: GatewayEndpoints())
        let size = state.encoded().count
        // Uncapped this is over 8 × 30,000 rows (≈ 20 MB); capped, a few rows per request.
        #expect(size < 1_000_000, "state is \(size) bytes")
        guard case .array(let items)? = state["pending"] else {
            Issue.record("no pending list")
            return
        }
        #expect(items.count == 8)
        for item in items {
            guard case .array(let rows)? = item["summary"] else {
                Issue.record("no summary")
                continue
            }
            #expect(rows.count <= ApprovalDetails.maxRows + ApprovalDetails.maxWarningRows)
            let more = try #require(item["moreRows"]?.integer(as: Int.self))
            #expect(more > Self.params - rows.count - 20 && item["partial"] == true)
            // The sentence is there whatever the rows.
            #expect(item["headline"]?.stringValue?.hasPrefix("Call vote on contract") == true)
        }
        // The full text of one request on demand: every param.
        let first = try #require(pending.first)
        let details = try #require(await ApprovalState.details(service: service, id: first.id))
        let text = try #require(details["text"]?.stringValue)
        #expect(text.contains("p\(Self.params - 1): value number \(Self.params - 1)"))
    }

    /// (rows held, rows sent, hidden, value cut)
    @Test(arguments: [(3, 3, 0, false), (40, 40, 0, false), (41, 40, 1, false), (100_000, 40, 99_960, false)])
    func rowsArePerRequestCapped(held: Int, sent: Int, hidden: Int, cut: Bool) {
        let rows = (0..<held).map { SummaryRow("p\($0)", "v") }
        var budget = ApprovalDetails.maxStateCharacters
        let shown = ApprovalDetails.shown(rows, budget: &budget)
        #expect(shown.rows.count == sent && shown.hiddenRows == hidden && shown.isPartial == (hidden > 0))
    }

    @Test func warningsAreNeverHiddenAndLongValuesAreCut() {
        var rows = (0..<100).map { SummaryRow("p\($0)", String(repeating: "x", count: 5_000)) }
        rows.append(SummaryRow("warning", "the last row warns", warning: true))
        var budget = ApprovalDetails.maxStateCharacters
        let shown = ApprovalDetails.shown(rows, budget: &budget)
        #expect(shown.rows.last?.value == "the last row warns")
        #expect(shown.rows.first?.value.count == ApprovalDetails.maxValueCharacters && shown.cut.first == true)
        #expect(shown.hiddenRows == 60)
    }

    @Test func theStateBudgetStopsRowsOfLaterRequests() {
        let rows = (0..<40).map { SummaryRow("p\($0)", String(repeating: "y", count: 1_000)) }
        var budget = ApprovalDetails.maxStateCharacters
        var sent = 0
        for _ in 0..<50 { sent += ApprovalDetails.shown(rows, budget: &budget).rows.count }
        #expect(sent * 1_000 <= ApprovalDetails.maxStateCharacters + 1_100)
    }
}

/// Issue 24 Also (b): a request through the link form (`GET /icon/connect?caller=`) carries the
/// referring page's identity, which Sigil cannot verify: the card (headline warning, a flagged row)
/// says so; a request from the site's own script does not.
@Suite struct IconLinkRequestTests {
    @Test(arguments: [true, false])
    func theCardSaysTheRequestCameFromALink(viaLink: Bool) async throws {
        let tests = IconGatewayTests()
        let service = try await tests.makeService(mode: .person)
        #expect(try await tests.connect(service, ["id": 1, "method": "bind"], approve: true)["result"] != nil)
        let wire = WireRequest(
            id: "link", message: "icon(connect)",
            request: ["id": 2, "method": "sign", "params": IconGatewayTests.vIcon7A])
        let client = ClientIdentity(source: Fixture.site, session: "link-session")
        _ =
            viaLink
            ? try await service.handleIconConnect(wire, from: client, caller: Fixture.site + "/back")
            : try await service.handle(wire, from: client)
        let approval = try #require(await service.pendingApprovals.last)
        guard case .adapter(let request) = approval.subject, request.wallet == "icon" else {
            Issue.record("not an ICON request")
            return
        }
        #expect(request.summary.contains { $0.label == "came from" && $0.isWarning } == viaLink)
        let headline = ApprovalHeadline(approval.subject, source: approval.source, accounts: [])
        #expect(headline.warnings.contains { $0.contains("came from a link") && $0.contains("Referer") } == viaLink)
    }

    /// A `bind` through the URL form is a connection request: its card carries the same warning.
    @Test(arguments: [true, false])
    func aBindFromALinkSaysSo(viaLink: Bool) async throws {
        let tests = IconGatewayTests()
        let service = try await tests.makeService(mode: .person)
        let wire = WireRequest(id: "bind", message: "icon(connect)", request: ["id": 1, "method": "bind"])
        let client = ClientIdentity(source: Fixture.site, session: "bind-session")
        _ =
            viaLink
            ? try await service.handleIconConnect(wire, from: client, caller: Fixture.site + "/back")
            : try await service.handle(wire, from: client)
        let approval = try #require(await service.pendingApprovals.last)
        guard case .authorize(let request) = approval.subject else {
            Issue.record("not a connection request")
            return
        }
        #expect(request.fromLink == viaLink)
        let headline = ApprovalHeadline(approval.subject, source: approval.source, accounts: [])
        #expect(headline.warnings.contains { $0.contains("came from a link") && $0.contains("Referer") } == viaLink)
    }
}
