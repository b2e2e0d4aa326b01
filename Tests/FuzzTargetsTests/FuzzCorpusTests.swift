import Foundation
import FuzzTargets
import Testing

/// Every seed of every fuzz target, and every input that once broke one (kept in
/// `Fuzz/regressions/<target>`), replayed: each must be refused or accepted with the target's
/// properties intact (docs: Fuzz/README.md).
@Suite struct FuzzCorpusTests {
    static func inputs(in directory: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted().map {
            directory.appendingPathComponent($0)
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func seedsAndRegressionsKeepEveryProperty(target: FuzzTarget) throws {
        let seeds = Self.inputs(in: FuzzResources.corpus(target))
        #expect(seeds.count >= 3, "every target has a seed corpus")
        for file in seeds + Self.inputs(in: FuzzResources.regressions(target)) {
            let bytes = try [UInt8](Data(contentsOf: file))
            #expect(throws: Never.self, "\(file.lastPathComponent)") { try target.run(bytes) }
        }
    }

    @Test func theTargetsThatNeedMetadataFindIt() {
        #expect(FuzzResources.polkadot != nil)
    }

    /// Valid inputs that exercise each property's accepting branch (re-encoding, split parsing).
    @Test(arguments: [
        (FuzzTarget.json, #"{"a":[1,2.50,"x\u0000"],"b":null}"#),
        (.config, "port = 8080\n"),
        (.http, "GET / HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\n\r\n"),
    ])
    func validInputsPass(target: FuzzTarget, text: String) throws {
        try target.run(Array(text.utf8))
    }
}
