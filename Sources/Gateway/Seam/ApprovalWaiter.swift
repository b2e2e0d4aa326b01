import SignerCore

/// Who waits for an approval's answer, how it is signed once approved, and where it is in its life
/// (``ApprovalLifecycle``): one shape for every protocol. The sign step is built before the request
/// is shown, from exactly what is shown; the coordinator runs it once, only after a yes.
struct ApprovalWaiter {
    /// Signs the approved request: the value for the waiting client and the signature bytes that
    /// the journal records before the value may leave.
    typealias Sign = @Sendable () throws -> AdapterSigned
    /// Stores what an approved request carries (polkadot-js's metadata update), before the journal;
    /// a request with one signs nothing.
    typealias Store = @Sendable () async throws -> Void

    /// Where the answer goes.
    enum Delivery {
        /// A bridge tab (polkadot-js, ICON): the reply goes to its session's event log, in the
        /// protocol's words (`replies`).
        case session(session: String, requestID: String, replies: any BridgeReplies)
        /// An adapter awaiting the answer (ICRC, Ethereum).
        case adapter(CheckedContinuation<AdapterOutcome, Never>)
    }

    let delivery: Delivery
    /// nil: approving it signs nothing (a connection, a permission, a metadata update).
    let sign: Sign?
    /// The decided step of a request that stores instead (nil for the rest).
    let store: Store?
    /// The key scheme that signs (metrics and the log line), when it signs.
    let scheme: String?
    var lifecycle: ApprovalLifecycle

    init(delivery: Delivery, sign: Sign?, scheme: String? = nil, store: Store? = nil) {
        self.delivery = delivery
        self.sign = sign
        self.store = store
        self.scheme = scheme
        lifecycle = ApprovalLifecycle(signs: sign != nil)
    }

    /// How the protocol words its answers, when the waiter is a bridge tab.
    var replies: (any BridgeReplies)? {
        if case .session(_, _, let replies) = delivery { return replies }
        return nil
    }
}

/// What an approved request signed: the value for the waiting client (a polkadot-js result, an ICON
/// signature, an adapter's typed result) and the signature bytes journaled.
struct AdapterSigned: Sendable {
    /// Read back by the adapter with `as? T`, by the bridge protocols as the reply's JSON.
    let value: any Sendable
    let signature: [UInt8]
}

/// How an adapter's approval ended, for the waiting adapter.
enum AdapterOutcome: Sendable {
    /// A person said no.
    case rejected
    /// Nobody decided: expired, the site was revoked, the client went away, or no place was left.
    case withdrawn
    /// Approved; what was signed (nil for a permission).
    case approved(AdapterSigned?)
    /// Approved but not signed, or the signature could not be journaled (and is withheld).
    case failed(GatewayError)
    /// Not queued: the origin already has the same request waiting (an exclusive request).
    case alreadyWaiting
}
