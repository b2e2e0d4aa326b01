import PolkadotCodec
import Primitives
/// A transaction to sign (`pub(extrinsic.sign)`), validated and prepared before it was queued. The
/// approval carries `prepared` itself: what the person approved is exactly what is signed.
package struct ExtrinsicSigningRequest: Sendable, Equatable {
    /// The address as the dapp sent it (any SS58 prefix).
    package var address: String
    /// The account key (`0x…` account id) the address resolved to; authorized for the source.
    package var accountKey: String
    /// The validated payload, the exact bytes to sign, and the summary built from them.
    package let prepared: PreparedPayload
    /// What the person sees: the account, then chain, call, amounts, mortality, call hash, warnings.
    package var summary: [SummaryRow]

    /// Creates a request.
    package init(address: String, accountKey: String, prepared: PreparedPayload, summary: [SummaryRow]) {
        self.address = address
        self.accountKey = accountKey
        self.prepared = prepared
        self.summary = summary
    }

    /// Whether the dapp asked for the signed transaction as well as the signature.
    package var wantsSignedTransaction: Bool { prepared.payload.withSignedTransaction }

    /// Whether Sigil cannot say what the call does: the chain's metadata is stored and the call does
    /// not decode with it. Signing it is blind signing (docs/blind-signing.md).
    package var isBlind: Bool { prepared.summary.callUndecodable }

    /// The warning put first on a blind request the site was allowed to make.
    package static let blindWarning =
        "BLIND SIGNING: this call does not decode with the chain's metadata, so Sigil cannot show what it does. "
        + "Approve only if you know exactly what this site is asking you to sign."

    /// The request as it may be queued for `origin`: unchanged when Sigil can describe the call; for
    /// a blind one, refused unless the person allowed the site blind signing, and otherwise led by a
    /// loud warning.
    /// - Throws: ``SignerError/Code/blindSigningOff`` (the person has not allowed it).
    package func checkedForBlindSigning(allowed: Bool) throws -> ExtrinsicSigningRequest {
        guard isBlind else { return self }
        guard allowed else {
            throw SignerError(
                .blindSigningOff,
                "Sigil cannot decode this call with the chain's metadata and blind signing is off for the site")
        }
        var request = self
        request.summary.insert(SummaryRow("warning", Self.blindWarning, warning: true), at: 0)
        return request
    }
}
