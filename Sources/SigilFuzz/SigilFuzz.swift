import Foundation
import FuzzTargets

// libFuzzer entry points (built only with SIGIL_FUZZ=1 and `--sanitize fuzzer`; scripts/fuzz). The
// target is chosen by SIGIL_FUZZ_TARGET; a broken property aborts, which libFuzzer reports with
// the input that caused it.

nonisolated(unsafe) private var selected: FuzzTarget = .json

@_cdecl("LLVMFuzzerInitialize")
package func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>
) -> CInt {
    let name = ProcessInfo.processInfo.environment["SIGIL_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("SIGIL_FUZZ_TARGET must be one of: \(names)\n".utf8))
        exit(2)
    }
    selected = target
    if target == .call || target == .signerPayload, FuzzResources.polkadot == nil {
        FileHandle.standardError.write(Data("Polkadot metadata not found (SIGIL_FUZZ_METADATA)\n".utf8))
        exit(2)
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        try selected.run(bytes)
    } catch {
        // A broken property must end the process so that libFuzzer keeps the input: say why, then abort.
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        abort()
    }
    return 0
}
