import Testing

@testable import SigningKeys

@Suite struct ConcurrencyTests {
    @Test(arguments: [KeyScheme.sr25519, .ed25519, .ecdsa])
    func onePairSignsAndVerifiesFromManyTasksAtOnce(scheme: KeyScheme) async throws {
        let pair = try KeyPair(uri: "//Alice", scheme: scheme)
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for i in 0..<64 {
                group.addTask {
                    let message = [UInt8(truncatingIfNeeded: i)] + Array("concurrent".utf8)
                    let signature = try pair.sign(message)
                    return scheme.verify(signature: signature, message: message, signer: pair.publicKey)
                }
            }
            var all = [Bool]()
            for try await ok in group { all.append(ok) }
            return all
        }
        #expect(results.count == 64 && results.allSatisfy { $0 })
    }
}
