import GatewayHTTP
import Journal
import Keystore
import Primitives
import SignerCore

/// The approval page's History view (`GET /api/journal`): recent journal entries matching the
/// query's filters (`site`, `account`, `decision`, `protocol`, `before`, `limit` ≤ 200), each with
/// what was shown, and the latest verification (run now when none ran yet).
enum JournalView {
    static let maxLimit = 200

    static func json(journal: (any SigningJournal)?, request: HTTPRequest) async -> JSONValue {
        guard let journal else { return ["enabled": false, "entries": [], "verification": .null] }
        var filter = JournalFilter()
        func query(_ name: String) -> String? {
            guard let value = request.queryParameter(name), !value.isEmpty else { return nil }
            return value
        }
        filter.origin = query("site")
        filter.account = query("account")
        filter.decision = query("decision")
        filter.protocolName = query("protocol")
        filter.beforeSeq = query("before").flatMap { UInt64($0) }
        let limit = min(maxLimit, query("limit").flatMap { Int($0) }.map { max(1, $0) } ?? 50)
        let entries: JSONValue
        do {
            entries = .array(try await journal.entries(matching: filter, limit: limit).map(\.json))
        } catch {
            entries = .array([])
        }
        var verification = await journal.lastVerification()
        if verification == nil { verification = try? await journal.verify() }
        return [
            "enabled": true, "entries": entries, "verification": verification?.json ?? .null,
            "decisions": .array(JournalDecision.allCases.map { .string($0.rawValue) }),
        ]
    }
}
