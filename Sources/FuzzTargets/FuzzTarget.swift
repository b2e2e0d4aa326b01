import EthereumCodec
import Foundation
import Gateway
import GatewayHTTP
import ICPCodec
import IconCodec
import Keystore
import PolkadotCodec
import Primitives
import ScaleCodec
import SigilConfiguration
import SignerCore

/// The parsers and decoders that take bytes from a socket or a file, each wrapped as one fuzz
/// target: `run` feeds the input and checks the target's properties. Any input may be refused
/// (a typed error is the expected answer to junk); what must never happen is a crash, a hang, or a
/// broken property, which `run` reports as a ``FuzzViolation``.
///
/// Used by libFuzzer (`SigilFuzz`, built only with `SIGIL_FUZZ=1`, see `scripts/fuzz`) and by the
/// Swift tests, which replay every seed and every kept crash input (`Fuzz/`).
package enum FuzzTarget: String, CaseIterable, Sendable {
    /// HTTP/1.1 request parser: the same messages (or the same error) whether the bytes arrive at
    /// once or split in two.
    case http
    /// `JSONValue.parse`: whatever parses writes back to text that parses to the same value.
    case json
    /// `SignerPayloadJSON` (polkadot-js `signPayload`), built against Polkadot's metadata and summarised.
    case signerPayload = "signer-payload"
    /// Runtime metadata (SCALE): whatever decodes re-encodes to exactly the input.
    case metadata
    /// A call decoded against Polkadot's metadata: whatever decodes re-encodes to exactly the input.
    case call
    /// A polkadot-js keystore JSON file (import): whatever parses serialises and parses back equal.
    case keystore
    /// The TOML configuration file parser.
    case config
    /// An ICON v3 transaction: whatever validates re-validates to the same serialization.
    case icon
    /// CBOR (ICP envelopes, certificates): whatever decodes encodes to bytes that decode to the same value.
    case cbor
    /// Candid arguments (ICRC-49 `arg`): the bounded decoder, and the renderer of the ledger methods
    /// over the same bytes (what a person would be shown).
    case candid
    /// An ICRC JSON-RPC body (`POST /icrc`): envelope, typed params, an `icrc49_call_canister`
    /// prepared and shown (rows, headline, capped state entry; nothing invisible reaches them).
    case icrc
    /// A Candid argument through `icrc49_call_canister` (Base64 in a JSON-RPC body) to what is shown.
    case icrc49Candid = "icrc49-candid"
    /// An ICON Connect / relay request: its transaction prepared and shown, with the same checks.
    case iconRequest = "icon-request"
    /// An Ethereum transaction, signed or unsigned (`EthereumTransaction.decode`): what decodes
    /// serialises to exactly the input; its calldata goes through the display decoder.
    case ethereumTransaction = "ethereum-tx"
    /// EIP-712 typed data (`TypedData(jsonText:)` and its digest), and the same bytes as a
    /// `personal_sign` param and a Sign-In with Ethereum message: the digest is deterministic.
    case ethereumMessage = "ethereum-message"

    /// Feeds `bytes` to the target and checks its properties.
    /// - Throws: ``FuzzViolation`` when a property does not hold (never for refused input).
    package func run(_ bytes: [UInt8]) throws(FuzzViolation) {
        switch self {
        case .http: try Self.http(bytes)
        case .json: try Self.json(bytes)
        case .signerPayload: try Self.signerPayload(bytes)
        case .metadata: try Self.metadata(bytes)
        case .call: try Self.call(bytes)
        case .keystore: try Self.keystore(bytes)
        case .config: _ = try? ConfigurationFileParser.parse(bytes, path: "fuzz.toml")
        case .icon: try Self.icon(bytes)
        case .cbor: try Self.cbor(bytes)
        case .candid: Self.candid(bytes)
        case .icrc: try Self.icrcRequest(bytes)
        case .icrc49Candid: try Self.icrc49Candid(bytes)
        case .iconRequest: try Self.iconRequest(bytes)
        case .ethereumTransaction: try Self.ethereumTransaction(bytes)
        case .ethereumMessage: try Self.ethereumMessage(bytes)
        }
    }

    // MARK: Targets

    private static func http(_ bytes: [UInt8]) throws(FuzzViolation) {
        let whole = httpOutcome(bytes, split: nil)
        let half = httpOutcome(bytes, split: bytes.count / 2)
        guard whole == half else {
            throw FuzzViolation(.http, "split at \(bytes.count / 2) gives \(half), whole gives \(whole)")
        }
    }

    private static func httpOutcome(_ bytes: [UInt8], split: Int?) -> [String] {
        var parser = HTTPRequestParser(limits: HTTPLimits(maxBodyBytes: 64 * 1024))
        var outcome: [String] = []
        let chunks = split.map { [bytes[..<$0], bytes[$0...]] } ?? [bytes[...]]
        for chunk in chunks {
            parser.feed(chunk)
            do {
                while let message = try parser.nextMessage() {
                    let r = message.request
                    outcome.append(
                        "\(r.method) \(r.target) \(r.version) \(message.keepAlive) \(r.headers.count) \(r.body.count)")
                }
            } catch {
                outcome.append("error \(error.code)")
                return outcome
            }
        }
        return outcome
    }

    private static func json(_ bytes: [UInt8]) throws(FuzzViolation) {
        guard let value = try? JSONValue.parse(bytes) else { return }
        let written = value.encoded()
        let again: JSONValue
        do {
            again = try JSONValue.parse(written)
        } catch {
            throw FuzzViolation(.json, "the written form does not parse: \(error)")
        }
        guard again == value, again.encoded() == written else {
            throw FuzzViolation(.json, "the written form parses to another value")
        }
    }

    /// A payload as a dapp sends it, with and without metadata: its summary, and what a person is
    /// shown of it (the adapter's headline, the rows) passes the display checks.
    private static func signerPayload(_ bytes: [UInt8]) throws(FuzzViolation) {
        guard let payload = try? SignerPayload(json: bytes) else { return }
        let metadata = FuzzResources.polkadot
        for md in [metadata, nil] {
            guard let signing = try? SigningPayload(payload: payload, metadata: md) else { continue }
            _ = PayloadSummary(payload: payload, signing: signing, metadata: md).text
            guard let prepared = try? PreparedPayload(payload: payload, metadata: md) else { continue }
            let request = ExtrinsicSigningRequest(
                address: prepared.payload.address, accountKey: Hex.encode(prepared.payload.accountId),
                prepared: prepared,
                summary: prepared.summary.rows.map { SummaryRow($0.label, $0.value, warning: $0.isWarning) })
            let account = SignerAccount(
                key: request.accountKey, address: request.address, name: nil, type: "sr25519", genesisHash: nil)
            let approval = PolkadotApproval.of(request, account: account, source: "https://d.example")
            try checkDisplay(.adapter(approval), rows: approval.summary, target: .signerPayload)
        }
    }

    private static func metadata(_ bytes: [UInt8]) throws(FuzzViolation) {
        guard let metadata = try? RuntimeMetadata(bytes: bytes) else { return }
        guard metadata.encoded == bytes else {
            throw FuzzViolation(.metadata, "decoded metadata re-encodes to other bytes")
        }
    }

    private static func call(_ bytes: [UInt8]) throws(FuzzViolation) {
        guard let metadata = FuzzResources.polkadot,
            let call = try? ValueDecoder(metadata: metadata).decodeCall(bytes)
        else { return }
        let encoded: [UInt8]
        do {
            encoded = try ValueEncoder(metadata: metadata).encode(call: call)
        } catch {
            throw FuzzViolation(.call, "a decoded call does not encode: \(error)")
        }
        guard encoded == bytes else { throw FuzzViolation(.call, "a decoded call re-encodes to other bytes") }
    }

    private static func keystore(_ bytes: [UInt8]) throws(FuzzViolation) {
        guard let file = try? KeyringJSON.parse(Data(bytes)) else { return }
        let again: KeyringJSON
        do {
            again = try KeyringJSON.parse(try file.serialized())
        } catch {
            throw FuzzViolation(.keystore, "a parsed file does not serialise and parse back: \(error)")
        }
        guard again.jsonValue == file.jsonValue,
            (try? again.encodedBytes()) == (try? file.encodedBytes())
        else {
            throw FuzzViolation(.keystore, "a serialised file parses back to another file")
        }
    }

    private static func cbor(_ bytes: [UInt8]) throws(FuzzViolation) {
        guard let value = try? CBORDecoder.decode(bytes) else { return }
        let again: CBORValue
        do {
            again = try CBORDecoder.decode(value.encoded())
        } catch {
            throw FuzzViolation(.cbor, "a decoded value's encoding does not decode: \(error)")
        }
        guard again == value else { throw FuzzViolation(.cbor, "a decoded value encodes to another value") }
    }

    /// The ICP ledger canister (`ryjl3-tyaaa-aaaaa-aaaba-cai`): the renderer names it and knows its methods.
    private static let ledger = try? Principal(text: "ryjl3-tyaaa-aaaaa-aaaba-cai")

    private static func candid(_ bytes: [UInt8]) {
        _ = try? CandidDecoder.decode(bytes)
        guard let ledger else { return }
        for method in ["icrc1_transfer", "icrc2_approve", "icrc2_transfer_from", "transfer", "account_balance"] {
            _ = RenderedCall.render(canister: ledger, method: method, arg: bytes)
        }
    }

    private static func ethereumTransaction(_ bytes: [UInt8]) throws(FuzzViolation) {
        guard let decoded = try? EthereumTransaction.decode(bytes) else { return }
        switch decoded {
        case .unsigned(let tx):
            guard tx.signingPayload == bytes else {
                throw FuzzViolation(.ethereumTransaction, "an unsigned transaction serialises differently")
            }
            _ = try? Calldata.decode(tx.data)
        case .signed(let signed):
            guard signed.raw == bytes else {
                throw FuzzViolation(.ethereumTransaction, "a signed transaction serialises differently")
            }
            _ = try? signed.recoverSender()
            _ = try? Calldata.decode(signed.transaction.data)
        }
    }

    private static func ethereumMessage(_ bytes: [UInt8]) throws(FuzzViolation) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = try? SiweMessage(text)
        _ = try? PersonalMessage.messageBytes(param: text)
        guard let typed = try? TypedData(jsonText: bytes), let digest = try? typed.digest() else { return }
        guard (try? TypedData(jsonText: bytes).digest()) == digest else {
            throw FuzzViolation(.ethereumMessage, "the same typed data hashes differently")
        }
    }

    private static func icon(_ bytes: [UInt8]) throws(FuzzViolation) {
        guard let transaction = try? IconTransaction(jsonText: bytes),
            let value = try? JSONValue.parse(bytes)
        else { return }
        do {
            let again = try IconTransaction(jsonText: value.encoded())
            guard again.serialized == transaction.serialized else {
                throw FuzzViolation(.icon, "the same transaction written again serialises differently")
            }
        } catch let violation as FuzzViolation {
            throw violation
        } catch {
            throw FuzzViolation(.icon, "a valid transaction written again is refused: \(error)")
        }
    }
}

/// A property of a fuzz target that did not hold.
package struct FuzzViolation: Error, CustomStringConvertible {
    package let target: FuzzTarget
    package let reason: String

    package init(_ target: FuzzTarget, _ reason: String) {
        self.target = target
        self.reason = reason
    }

    package var description: String { "fuzz target \(target.rawValue): \(reason)" }
}
