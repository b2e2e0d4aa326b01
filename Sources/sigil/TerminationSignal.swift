import Dispatch
import Glibc

/// Waits for SIGINT or SIGTERM (the default actions are replaced by Dispatch signal sources). A second
/// signal during the graceful shutdown ends the process at once.
enum TerminationSignal {
    /// Suspends until the process receives SIGINT or SIGTERM; returns the signal number.
    static func wait() async -> Int32 {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            let queue = DispatchQueue(label: "sigil.signals")
            let box = SignalSources()
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler {
                    if box.fire() {
                        continuation.resume(returning: number)
                    } else {
                        // A second signal while shutting down: stop at once.
                        _exit(128 + number)
                    }
                }
                box.sources.append(source)
                source.resume()
            }
        }
    }

    /// Keeps the sources alive and makes sure the continuation resumes once; used on `queue` only.
    private final class SignalSources: @unchecked Sendable {
        var sources: [any DispatchSourceSignal] = []
        private var fired = false
        func fire() -> Bool {
            if fired { return false }
            fired = true
            return true
        }
    }
}
