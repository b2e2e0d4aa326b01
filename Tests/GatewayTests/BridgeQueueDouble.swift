import Primitives
import SignerCore

@testable import Gateway

/// A ``BridgeQueue`` over a real ``ApprovalCenter``, recording what was queued.
final class BridgeQueueDouble: BridgeQueue {
    var center: ApprovalCenter
    let signer: any RequestSigner
    var denied: Set<String> = []
    var queued:
        [(
            approval: PendingApproval<ApprovalSubject>, sign: ApprovalWaiter.Sign?, scheme: String?,
            replies: any BridgeReplies
        )] = []

    init(sites: [AuthorizedSite], signer: any RequestSigner) {
        center = ApprovalCenter(book: AuthorizationBook(sites))
        self.signer = signer
    }

    func requireEnabled(_ source: String) throws -> [String] { try center.requireEnabled(source) }
    func account(_ address: String, allowed: [String]) throws -> SignerAccount {
        guard let key = signer.accountKey(forAddress: address), allowed.contains(key),
            let account = signer.accounts().first(where: { $0.key == key })
        else { throw SignerError(.unknownAccount, "account not available to the source") }
        return account
    }
    func isDenied(_ source: String) -> Bool { denied.contains(source) }
    func requireNoAuthorizationStoring(_ source: String) throws {}
    func isConnectedByAnotherProtocolOnly(_ source: String) async -> Bool { false }
    func isBlindSigningAllowed(_ source: String) async -> Bool { false }
    func requestAuthorization(_ client: ClientIdentity, declaredName: String, askAgain: Bool, fromLink: Bool) throws
        -> ApprovalCenter.AuthorizationOutcome
    {
        try center.requestAuthorization(
            source: client.source, declaredName: declaredName, session: client.session, now: .zero,
            askAgain: askAgain, fromLink: fromLink)
    }
    func requestSignature(_ request: AdapterApproval, from client: ClientIdentity) throws
        -> PendingApproval<ApprovalSubject>
    {
        try center.requestSignature(source: client.source, session: client.session, request: request, now: .zero)
    }
    func requestUpdate(_ request: AdapterApproval, from client: ClientIdentity) throws
        -> PendingApproval<ApprovalSubject>
    {
        try center.requestUpdate(source: client.source, session: client.session, request: request, now: .zero)
    }
    func queued(
        _ approval: PendingApproval<ApprovalSubject>, _ request: WireRequest, _ client: ClientIdentity,
        sign: ApprovalWaiter.Sign?, scheme: String?, store: ApprovalWaiter.Store?, replies: any BridgeReplies
    ) async -> GatewayService.Outcome {
        queued.append((approval, sign, scheme, replies))
        return .pending
    }
}
