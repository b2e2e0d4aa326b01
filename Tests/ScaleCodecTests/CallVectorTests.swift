import Foundation
import Primitives
import Testing

@testable import ScaleCodec

/// `calls.json`: calls decoded by polkadot-js; we must find the same pallet, call and arguments.
@Suite struct CallVectorTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let id: String
        let metadata: String
        let call: String
        let pallet: String
        let callName: String
        let argsJSON: String
        var testDescription: String { id }
    }

    static let vectors: [Vector] = {
        let all = (try? TestResources.json("calls.json")["vectors"] as? [[String: Any]]) ?? []
        return all.compactMap { v in
            guard let id = v["id"] as? String, let md = v["metadata"] as? String, let call = v["call"] as? String,
                let pallet = v["pallet"] as? String, let name = v["call_name"] as? String,
                let args = v["args_json"],
                let data = try? JSONSerialization.data(withJSONObject: args, options: [.sortedKeys])
            else { return nil }
            let file = (md as NSString).lastPathComponent
            return Vector(
                id: id, metadata: file, call: call, pallet: pallet, callName: name,
                argsJSON: String(decoding: data, as: UTF8.self))
        }
    }()

    static let metadataCache = MetadataCache()

    @Test func theVectorFileHasEveryCall() { #expect(Self.vectors.count == 16) }

    @Test(arguments: vectors)
    func callDecodesToThePalletCallAndArgumentsPolkadotJsFound(v: Vector) throws {
        let md = try Self.metadataCache.get(v.metadata)
        let bytes = try Hex.decode(v.call, prefix: .required)
        let call = try ValueDecoder(metadata: md).decodeCall(bytes)
        #expect(Self.lowerCamel(call.pallet) == v.pallet)
        #expect(Self.lowerCamel(call.name) == v.callName)
        let mine = Self.polkadotJsForm(.object(call.args.map { ($0.name.map(Self.lowerCamel) ?? "_", $0.value) }))
        let expected = try Self.normalize(JSONSerialization.jsonObject(with: Data(v.argsJSON.utf8)))
        #expect(mine == expected, "\(v.id)")
        // and the decoded call re-encodes to the same bytes
        #expect(try ValueEncoder(metadata: md).encode(call: call) == bytes)
    }

    @Test func balancesShowWithTheChainTokenAndAccountsThroughTheInjectedFormatter() throws {
        let md = try Self.metadataCache.get("polkadot-v15.scale")
        let bytes = try Hex.decode(
            "0x0503008eaf04151687736326c9fea17e25fc5287613693c912909cb226aa4794f26a480bf22fce733a0b", prefix: .required)
        let call = try ValueDecoder(metadata: md).decodeCall(bytes)
        let renderer = ValueRenderer(
            accountFormatter: { "acct:" + Hex.encode($0.prefix(2)) },
            token: TokenFormat(decimals: 10, symbol: "DOT"))
        let text = renderer.text(call)
        #expect(text.contains("Balances.transfer_keep_alive"))
        #expect(text.contains("value: 1,234.5678901234 DOT"))
        #expect(text.contains("dest: Id(acct:0x8eaf)"))
        let json = renderer.json(call)
        #expect(json["pallet"] == .string("Balances"))
        #expect(json["call"] == .string("transfer_keep_alive"))
        #expect(json["args"]?["value"]?["amount"] == .string("12345678901234"))
    }

    @Test func nestedBatchCallsAreShownAsCalls() throws {
        let md = try Self.metadataCache.get("polkadot-v15.scale")
        let bytes = try Hex.decode(
            "0x1a020800000868690503008eaf04151687736326c9fea17e25fc5287613693c912909cb226aa4794f26a480700e40b5402",
            prefix: .required)
        let call = try ValueDecoder(metadata: md).decodeCall(bytes)
        let text = ValueRenderer(token: TokenFormat(decimals: 10, symbol: "DOT")).text(call)
        #expect(text.contains("Utility.batch_all"))
        #expect(text.contains("System.remark"))
        #expect(text.contains("remark: \"hi\""))
        #expect(text.contains("value: 1 DOT"))
    }

    @Test(arguments: ["0x", "0xff00", "0x00ff", "0x0000", "0x00001468656c6c", "0x00001468656c6c6f00"])
    func malformedCallsAreRefused(hex: String) throws {
        let md = try Self.metadataCache.get("polkadot-v15.scale")
        #expect(throws: ScaleError.self) {
            try ValueDecoder(metadata: md).decodeCall(Hex.decode(hex, prefix: .required))
        }
    }

    // MARK: polkadot-js JSON form

    static func lowerCamel(_ s: String) -> String {
        let parts = s.split(separator: "_")
        guard let first = parts.first else { return s }
        let head = first.prefix(1).lowercased() + first.dropFirst()
        return head + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    indirect enum Norm: Equatable, CustomStringConvertible {
        case scalar(String)
        case list([Norm])
        case dict([String: Norm])

        var description: String {
            switch self {
            case .scalar(let s): return s
            case .list(let l): return "[" + l.map(\.description).joined(separator: ",") + "]"
            case .dict(let d): return "{" + d.keys.sorted().map { "\($0):\(d[$0]!)" }.joined(separator: ",") + "}"
            }
        }
    }

    /// Our value in polkadot-js `toJSON` shape: enums `{variantLowerCamel: value}`, bytes hex,
    /// accounts as their raw bytes, nested calls `{callIndex, args}`.
    static func polkadotJsForm(_ value: PJS) -> Norm {
        switch value {
        case .object(let pairs):
            return .dict(Dictionary(pairs.map { ($0.0, polkadotJsForm(.value($0.1))) }) { a, _ in a })
        case .value(let v):
            switch v {
            case .unsigned(let n), .balance(let n): return .scalar(String(n))
            case .bytes(let b): return .scalar(Hex.encode(b))
            case .account(let b): return .scalar("account:" + Hex.encode(b))
            case .sequence(let items): return .list(items.map { polkadotJsForm(.value($0)) })
            case .variant(let vr):
                let inner: Norm =
                    vr.fields.count == 1 && vr.fields[0].name == nil
                    ? polkadotJsForm(.value(vr.fields[0].value))
                    : polkadotJsForm(.object(vr.fields.map { ($0.name.map(lowerCamel) ?? "_", $0.value) }))
                return .dict([lowerCamel(vr.name): inner])
            case .call(let c):
                return .dict([
                    "callIndex": .scalar(Hex.encode([c.palletIndex, c.callIndex])),
                    "args": polkadotJsForm(.object(c.args.map { ($0.name.map(lowerCamel) ?? "_", $0.value) })),
                ])
            default: return .scalar("\(v)")
            }
        }
    }

    enum PJS {
        case object([(String, ScaleValue)])
        case value(ScaleValue)
    }

    static func normalize(_ any: Any) throws -> Norm {
        if let d = any as? [String: Any] {
            return .dict(try d.mapValues { try normalize($0) })
        }
        if let a = any as? [Any] { return .list(try a.map(normalize)) }
        if let s = any as? String {
            // an SS58 address: compare by the account bytes it carries
            if !s.hasPrefix("0x"), let bytes = Base58.decode(s), bytes.count == 35 {
                return .scalar("account:" + Hex.encode(bytes[1..<33]))
            }
            return .scalar(s)
        }
        if let n = any as? NSNumber { return .scalar(n.stringValue) }
        throw CocoaError(.coderInvalidValue)
    }
}

/// Base58 (Bitcoin alphabet) decoding, for reading SS58 addresses in test vectors only.
enum Base58 {
    static let alphabet = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".utf8)

    static func decode(_ s: String) -> [UInt8]? {
        var out: [UInt8] = []
        for c in s.utf8 {
            guard var carry = alphabet.firstIndex(of: c) else { return nil }
            for i in out.indices.reversed() {
                carry += Int(out[i]) * 58
                out[i] = UInt8(carry & 0xFF)
                carry >>= 8
            }
            while carry > 0 {
                out.insert(UInt8(carry & 0xFF), at: 0)
                carry >>= 8
            }
        }
        let zeros = s.utf8.prefix { $0 == UInt8(ascii: "1") }.count
        return Array(repeating: 0, count: zeros) + out
    }
}

/// Decodes each metadata fixture once per test process.
final class MetadataCache: @unchecked Sendable {
    private var cache: [String: RuntimeMetadata] = [:]
    private let lock = NSLock()

    func get(_ file: String) throws -> RuntimeMetadata {
        lock.lock()
        defer { lock.unlock() }
        if let md = cache[file] { return md }
        let md = try RuntimeMetadata(bytes: TestResources.data(file))
        cache[file] = md
        return md
    }
}

@Suite struct NestedCallTests {
    @Test func proxyProxyShowsItsInnerCallAndAssetAmountsAreNotTheNativeToken() throws {
        let md = try CallVectorTests.metadataCache.get("polkadot-v15.scale")
        let proxy = try #require(md.pallet(named: "Proxy"))
        // Proxy.proxy(real: MultiAddress::Id(…), force_proxy_type: None, call: System.remark(b"hello"))
        let bytes: [UInt8] =
            [proxy.index, 0x00, 0x00] + Array(repeating: 0x11, count: 32) + [0x00] + [0x00, 0x00, 0x14]
            + Array("hello".utf8)
        let call = try ValueDecoder(metadata: md).decodeCall(bytes)
        #expect(call.pallet == "Proxy" && call.name == "proxy")
        guard case .call(let inner)? = call.args.last?.value else {
            Issue.record("inner call not decoded as a call")
            return
        }
        #expect(inner.pallet == "System" && inner.name == "remark")
        #expect(ValueRenderer().text(call).contains("remark: \"hello\""))
        #expect(try ValueEncoder(metadata: md).encode(call: call) == bytes)

        let ah = try CallVectorTests.metadataCache.get("asset-hub-polkadot-v15.scale")
        let assets = try #require(ah.pallet(named: "Assets"))
        // Assets.transfer(id: Compact(1984), target: Id(…), amount: Compact(1_000_000))
        let t: [UInt8] =
            [assets.index, 0x08, 0x01, 0x1f, 0x00] + Array(repeating: 0x22, count: 32) + [0x02, 0x09, 0x3d, 0x00]
        let transfer = try ValueDecoder(metadata: ah).decodeCall(t)
        #expect(transfer.name == "transfer")
        #expect(transfer.args.last?.value == .unsigned(1_000_000))
        let balances = try #require(ah.pallet(named: "Balances"))
        let native = try ValueDecoder(metadata: ah).decodeCall(
            [balances.index, 0x03, 0x00] + Array(repeating: 0x22, count: 32) + [0x02, 0x09, 0x3d, 0x00])
        #expect(native.args.last?.value == .balance(1_000_000))
    }

    @Test func multiAddressRoundTripsEveryVariant() throws {
        let all: [MultiAddress] = [
            .id(Array(repeating: 1, count: 32)), .index(70000), .raw([1, 2, 3]),
            .address32(Array(repeating: 2, count: 32)),
            .address20(Array(repeating: 3, count: 20)),
        ]
        for a in all {
            let bytes = ScaleWriter.encode { a.encode(to: &$0) }
            #expect(try ScaleReader.decode(bytes) { try MultiAddress(from: &$0) } == a)
        }
        #expect(throws: ScaleError(.invalidVariant, "")) { try ScaleReader.decode([5]) { try MultiAddress(from: &$0) } }
        #expect(throws: ScaleError(.invalidLength, "")) { try MultiAddress.account([1]) }
    }
}

@Suite struct ValueRendererTests {
    @Test func longBytesAndSequencesAreShortenedInTextButNotInJSON() {
        let long = Array(repeating: UInt8(ascii: "a"), count: 2000)
        let text = ValueRenderer.bytesText(long)
        #expect(text.hasSuffix("… (2000 bytes in all)"))
        #expect(text.count < 600)
        #expect(ValueRenderer.bytesText([0xff, 0x00]) == "0xff00")
        #expect(ValueRenderer.bytesText(Array("hi\n".utf8)) == "\"hi\\n\"")
        let items = ScaleValue.sequence((0..<100).map { .unsigned(UInt128($0)) })
        #expect(ValueRenderer().inline(items).hasSuffix("… (100 items in all)]"))
        guard case .array(let all) = ValueRenderer().json(items) else {
            Issue.record("not an array")
            return
        }
        #expect(all.count == 100)
    }

    @Test func amountsAreExactWithGroupingAndDecimals() {
        let dot = TokenFormat(decimals: 10, symbol: "DOT")
        #expect(dot.format(0) == "0 DOT")
        #expect(dot.format(1) == "0.0000000001 DOT")
        #expect(dot.format(12_345_678_901_234) == "1,234.5678901234 DOT")
        #expect(dot.format(UInt128.max) == "34,028,236,692,093,846,346,337,460,743.1768211455 DOT")
        #expect(ValueRenderer().balanceText(1_000_000) == "1,000,000 (planck)")
    }

    @Test(arguments: [-5, 39, 1000, Int.max])
    func decimalsOutsideWhatU128CanHoldAreClampedAndNeverOverflow(decimals: Int) {
        let format = TokenFormat(decimals: decimals, symbol: "")
        #expect((0...38).contains(format.decimals))
        #expect(!format.format(UInt128.max).isEmpty)
    }

    @Test func namesAndStringsFromUntrustedMetadataCannotCarryTerminalOrBidiControls() {
        let esc = "\u{1B}[2J\u{9B}1m\u{202E}"
        let call = DecodedCall(
            pallet: "Bal" + esc, palletIndex: 5, name: "transfer" + esc, callIndex: 0,
            args: [
                ScaleField(
                    name: "dest" + esc, typeName: nil,
                    value: .variant(ScaleVariant(name: "Id" + esc, index: 0, fields: []))),
                ScaleField(name: "note", typeName: nil, value: .string("hi" + esc)),
                ScaleField(name: "c", typeName: nil, value: .char(0x1B)),
            ])
        let text = ValueRenderer().text(call)
        for scalar in text.unicodeScalars {
            #expect(
                !(scalar.value < 0x20 && scalar != "\n") && !JSONValue.isInvisibleControl(scalar), "\(scalar.value)")
        }
        #expect(text.contains("Bal\u{FFFD}[2J\u{FFFD}1m\u{FFFD}.transfer"))
        #expect(text.contains("note: \"hi\\u001b[2J\\u009b1m\\u202e\""))
        #expect(ValueRenderer.safeName("transfer_keep_alive") == "transfer_keep_alive")
    }

    /// Printable ASCII passes unchanged; each control, DEL, C1 and bidirectional character is
    /// replaced wherever it sits, other non-ASCII text is kept.
    @Test(arguments: [
        ("transfer_keep_alive", "transfer_keep_alive"), ("", ""), (" ~!", " ~!"),
        ("a\u{1B}[2J", "a\u{FFFD}[2J"), ("del\u{7F}", "del\u{FFFD}"), ("c1\u{9B}x", "c1\u{FFFD}x"),
        ("rlo\u{202E}", "rlo\u{FFFD}"), ("tab\t", "tab\u{FFFD}"), ("Dürer €", "Dürer €"), ("🔑 key", "🔑 key"),
    ])
    func safeNameReplacesOnlyTheDangerousCharacters(name: String, expected: String) {
        #expect(ValueRenderer.safeName(name) == expected)
    }

    @Test func jsonTextEscapesControlCharacters() {
        let v: JSONValue = ["k\"": .string("a\u{0}b\n\u{2028}")]
        #expect(v.serialized() == "{\"k\\\"\":\"a\\u0000b\\n\\u2028\"}")
    }
}
