import Primitives
import SigningKeys
import Testing

@testable import EthereumCodec

/// Calldata for display (docs/reference/ethereum.md §8.4) and Sign-In with Ethereum (§7.7).
@Suite struct DisplayTests {
    @Test func selectorsMatchTheVectors() throws {
        let v = try Vectors.vector("function-selectors")
        let table = try #require(v["selectors"]?.objectValue)
        #expect(table.count >= 8)
        for (signature, selector) in table {
            #expect(Hex.encode(Calldata.selector(signature)) == selector["selector"]?.stringValue, "\(signature)")
        }
        for f in Calldata.functions { #expect(Calldata.bySelector[Calldata.selector(f.0)]?.0 == f.0) }
    }

    @Test(arguments: Vectors.ids(kind: "abi_calldata"))
    func calldata(_ id: String) throws {
        let v = try Vectors.vector(id)
        guard case .known(let call) = try Calldata.decode(try Vectors.hex(v["calldata"])) else {
            Issue.record("\(id) not decoded")
            return
        }
        #expect(call.signature == v["function"]?.stringValue)
        let args = try #require(v["args"]?.arrayValue)
        #expect(call.arguments.count == args.count)
        for (arg, expected) in zip(call.arguments, args) {
            switch arg.value {
            case .address(let a): #expect(a.checksummed == expected.stringValue, "\(id) \(arg.name)")
            case .uint(let n): #expect(n.description == expected.vectorInteger, "\(id) \(arg.name)")
            case .bool(let b): #expect(.bool(b) == expected, "\(id) \(arg.name)")
            case .bytes(let b): #expect(Hex.encode(b) == expected.stringValue, "\(id) \(arg.name)")
            case .uintArray: Issue.record("no array in these vectors")
            }
        }
    }

    static func word(_ n: UInt64) -> [UInt8] { UInt256(n).word }
    static let a1 = [UInt8](repeating: 0, count: 12) + [UInt8](repeating: 0x11, count: 20)
    static let a2 = [UInt8](repeating: 0, count: 12) + [UInt8](repeating: 0x22, count: 20)

    @Test func erc1155Batch() throws {
        let sel = Calldata.selector("safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)")
        let body =
            Self.a1 + Self.a2 + Self.word(160) + Self.word(256) + Self.word(352) + Self.word(2) + Self.word(7)
            + Self.word(8) + Self.word(2) + Self.word(1) + Self.word(2) + Self.word(0)
        guard case .known(let call) = try Calldata.decode(sel + body) else {
            Issue.record("not decoded")
            return
        }
        #expect(call.name == "safeBatchTransferFrom")
        #expect(call.arguments[2].value == .uintArray([7, 8]))
        #expect(call.arguments[3].value == .uintArray([1, 2]))
        #expect(call.arguments[4].value == .bytes([]))
        // Offsets or lengths past the end are refused, never read.
        var bad = body
        bad.replaceSubrange(64..<96, with: Self.word(1 << 40))
        #expect(throws: EthereumCodecError(.tooLarge, "")) { try Calldata.decode(sel + bad) }
        var long = body
        long.replaceSubrange(160..<192, with: Self.word(1000))
        #expect(throws: EthereumCodecError.self) { try Calldata.decode(sel + long) }
    }

    @Test func malformedKnownCallsAndUnknownSelectors() throws {
        let transfer = Calldata.selector("transfer(address,uint256)")
        #expect(throws: EthereumCodecError(.truncated, "")) { try Calldata.decode(transfer + Self.a1) }
        #expect(throws: EthereumCodecError(.trailingBytes, "")) {
            try Calldata.decode(transfer + Self.a1 + Self.word(1) + Self.word(1))
        }
        #expect(throws: EthereumCodecError(.invalidValue, "")) {
            try Calldata.decode(transfer + [UInt8](repeating: 0xff, count: 32) + Self.word(1))
        }
        let approval = Calldata.selector("setApprovalForAll(address,bool)")
        #expect(throws: EthereumCodecError(.invalidValue, "")) {
            try Calldata.decode(approval + Self.a1 + Self.word(2))
        }
        #expect(try Calldata.decode([]) == .empty)
        #expect(try Calldata.decode([1, 2]) == .unknown(selector: [1, 2], arguments: []))
        #expect(try Calldata.decode([1, 2, 3, 4, 5]) == .unknown(selector: [1, 2, 3, 4], arguments: [5]))
    }

    @Test func siweVector() throws {
        let v = try Vectors.vector("siwe-acct0")
        let text = try #require(v["message_text"]?.stringValue)
        let m = try SiweMessage(text)
        let p = try #require(v["parsed"])
        #expect(m.scheme == p["scheme"]?.stringValue)
        #expect(m.domain == p["domain"]?.stringValue)
        #expect(m.address.checksummed == p["address"]?.stringValue)
        #expect(m.statement == p["statement"]?.stringValue)
        #expect(m.uri == p["uri"]?.stringValue)
        #expect(m.chainId == p["chain_id"]?.integer(as: UInt64.self))
        #expect(m.nonce == p["nonce"]?.stringValue)
        #expect(m.issuedAt == p["issued_at"]?.stringValue)
        #expect(m.expirationTime == p["expiration_time"]?.stringValue)
        #expect(m.resources == (p["resources"]?.arrayValue ?? []).compactMap(\.stringValue))
        #expect(SiweMessage.looksLikeSiwe(text))
        // The request carries the same text as hex; the signature is an ordinary personal_sign.
        let param = try #require(v["request"]?["params"]?.arrayValue?.first?.stringValue)
        #expect(try PersonalMessage.messageBytes(param: param) == Array(text.utf8))
        let sig = try PersonalMessage.sign(Array(text.utf8), with: EthereumKeyPair.devAccount(index: 0))
        #expect(Hex.encode(sig) == v["signature"]?.stringValue)
    }

    static let siweBase = [
        "https://example.com:8080 wants you to sign in with your Ethereum account:",
        "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "", "URI: https://example.com", "Version: 1", "Chain ID: 1",
        "Nonce: abcdefgh12", "Issued At: 2026-01-01T00:00:00.5+02:00",
    ]

    @Test func siweWithoutStatementAndWithScheme() throws {
        let m = try SiweMessage(Self.siweBase.joined(separator: "\n"))
        #expect(m.scheme == "https")
        #expect(m.domain == "example.com:8080")
        #expect(m.statement == nil)
        #expect(m.resources.isEmpty)
    }

    static let siweBreaks: [(Int, String, String)] = [
        (0, "example.com wants you to sign in with your account:", "domain"),
        (1, "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", "address"),
        (1, "0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "address"),
        (4, "Version: 2", "Version"),
        (5, "Chain ID: 01", "Chain ID"),
        (6, "Nonce: short", "Nonce"),
        (7, "Issued At: 2026-13-01T00:00:00Z", "Issued At"),
        (7, "Issued At: yesterday", "Issued At"),
        (3, "URI: not a uri", "URI"),
        (3, "URL: https://example.com", "statement"),
    ]

    @Test(arguments: DisplayTests.siweBreaks.indices)
    func siweRefusals(_ i: Int) throws {
        let (line, replacement, field) = DisplayTests.siweBreaks[i]
        var lines = Self.siweBase
        lines[line] = replacement
        do {
            _ = try SiweMessage(lines.joined(separator: "\n"))
            Issue.record("accepted \(replacement)")
        } catch let error as EthereumCodecError {
            #expect(error.field == field, "\(replacement)")
            #expect(error.offset != nil || error.code != .invalidSiweMessage)
        }
        #expect(throws: EthereumCodecError.self) { try SiweMessage(Self.siweBase.joined(separator: "\n") + "\nextra") }
        #expect(throws: EthereumCodecError.self) { try SiweMessage(Self.siweBase.joined(separator: "\r\n")) }
    }
}
