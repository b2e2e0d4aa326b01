/// A protocol adapter's request, protocol-neutral (docs/architecture.md, "The seam"): what the
/// person reads (the title, the rows, the warnings among them), what the journal records (the
/// protocol and method, the account, the digest of exactly what the signature covers), and nothing
/// a protocol would have to be switched over for. Every signing request is queued as this:
/// polkadot-js (`pub(extrinsic.sign)`, `pub(bytes.sign)`), the Internet Computer (ICRC-25
/// permissions, ICRC-49 calls), ICON (Connect and relay signatures) and Ethereum (EIP-1193).
package struct AdapterApproval: Sendable, Equatable {
    /// The journal's protocol name (`icp`, `ethereum`); also the approval page's `kind`.
    package let wallet: String
    /// The wire method that asked (`icrc49_call_canister`, `eth_sendTransaction`).
    package let method: String
    /// The heading: a question naming the site (`Call transfer for https://dapp.example?`).
    package let title: String
    /// What the person reads, in order; rows labelled `warning` are the request's warnings.
    package let summary: [SummaryRow]
    /// The bytes the signature covers (an ICP request id, an Ethereum signing hash, a Polkadot
    /// signing payload); empty when nothing is signed (a permission, a metadata update).
    package let requestId: [UInt8]
    /// For a request that stores what it carries instead of signing (a metadata update): the
    /// BLAKE2b-256 digest of exactly what is stored, which the journal records; empty otherwise.
    package let storedDigest: [UInt8]
    /// The one sentence the approval page and the terminal show first; nil: the `call` row, else
    /// the title.
    package let sentence: String?
    /// The account that signs, as the journal records it (`0x…` EIP-55, a principal, `hx…`, a
    /// generic SS58 address); empty when none.
    package let account: String
    /// The grant book's key of that account (a Substrate account's `0x…` account id; the account
    /// itself for the other protocols). For a request of a connected site it must be one of the
    /// site's granted keys.
    package let accountKey: String
    /// The approval page's `kind` (how the page draws it: `icon-hash` is a bare hash); the wallet
    /// name unless the adapter says otherwise.
    package let kind: String
    /// The sentence with the accounts it names, when the adapter builds it (``AdapterHeadline``);
    /// nil: ``sentence``, the `call` row or the title, with the warning rows. Built when it is read
    /// if the adapter gave a builder: only a person reads it (the approval page, the terminal), so a
    /// request decided automatically never pays for it.
    package var headline: AdapterHeadline? { headlineBuilder?() ?? builtHeadline }
    private let builtHeadline: AdapterHeadline?
    /// Builds the headline from the adapter's typed request, which it captures (Polkadot's decoded
    /// call: every address in the chain's SS58 form, identicons; as costly as preparing the request).
    private let headlineBuilder: (@Sendable () -> AdapterHeadline)?

    package init(
        method: String, title: String, summary: [SummaryRow], requestId: [UInt8] = [], wallet: String = "icp",
        sentence: String? = nil, account: String = "", accountKey: String? = nil, kind: String? = nil,
        headline: AdapterHeadline? = nil, buildHeadline: (@Sendable () -> AdapterHeadline)? = nil,
        storedDigest: [UInt8] = []
    ) {
        builtHeadline = headline
        headlineBuilder = buildHeadline
        self.storedDigest = storedDigest
        self.wallet = wallet
        self.method = method
        self.title = title
        self.summary = summary
        self.requestId = requestId
        self.sentence = sentence
        self.account = account
        self.accountKey = accountKey ?? account
        self.kind = kind ?? wallet
    }

    /// Equal when everything a person is shown and everything journaled is (the headline compared
    /// as built).
    package static func == (a: AdapterApproval, b: AdapterApproval) -> Bool {
        a.wallet == b.wallet && a.method == b.method && a.title == b.title && a.summary == b.summary
            && a.requestId == b.requestId && a.storedDigest == b.storedDigest && a.sentence == b.sentence
            && a.account == b.account && a.accountKey == b.accountKey && a.kind == b.kind
            && a.headline == b.headline
    }

    /// The rows that are warnings.
    package var warnings: [String] { summary.filter { $0.label == "warning" }.map(\.value) }
}

/// An adapter's headline (``ApprovalHeadline``) in protocol-neutral parts: the addresses it names
/// (in order, each with its role), the sentence as text and accounts, and its warnings as sentences.
/// The person's names for accounts are filled in when the headline is shown (an account the person
/// named reads as the name, any other as its short form), so an adapter never sees them.
package struct AdapterHeadline: Sendable, Equatable {
    /// An address the request names: its role (`from`, `to`), the address as the request writes it
    /// (a Substrate account in the chain's own SS58 format), the key the person's names are kept
    /// under when it differs from the address (a Substrate account's `0x…` account id), and its
    /// identicon colours when the protocol has them (``PolkadotIdenticon``).
    package struct Mention: Sendable, Equatable {
        package var role: String
        package var address: String
        package var key: String?
        package var identicon: [String]?
        package init(_ role: String, _ address: String, key: String? = nil, identicon: [String]? = nil) {
            self.role = role
            self.address = address
            self.key = key
            self.identicon = identicon
        }
    }

    /// A piece of the sentence.
    package enum Part: Sendable, Equatable {
        /// Text as it is (it still passes ``DisplayText`` with the whole sentence).
        case text(String)
        /// An address: the person's name for it, else ``AddressText/short(_:)`` (a mention of the
        /// same address gives the key its name is kept under).
        case account(String)
    }

    /// The addresses named, in order (signer first).
    package var mentions: [Mention]
    package var parts: [Part]
    package var warnings: [String]

    package init(mentions: [Mention], parts: [Part], warnings: [String]) {
        self.mentions = mentions
        self.parts = parts
        self.warnings = warnings
    }
}
