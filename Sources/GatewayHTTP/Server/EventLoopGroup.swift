import Dispatch
import Glibc

/// The event loops of one server, one per CPU this process may run on (its affinity mask: what
/// `taskset` or a container allows). Connections are spread round robin and stay on their loop.
struct EventLoopGroup: Sendable {
    let loops: [EventLoop]

    /// Creates the loops; `nil` when the kernel refuses an epoll descriptor (EMFILE/ENFILE), with
    /// the loops made so far released.
    init?(label: String) {
        let count = max(1, min(EventLoopGroup.usableProcessors(), 64))
        var loops: [EventLoop] = []
        for index in 0..<count {
            guard let loop = EventLoop(label: "\(label).\(index)") else {
                for made in loops { made.stop() }
                return nil
            }
            loops.append(loop)
        }
        self.loops = loops
    }

    /// The loop for the connection with `id` (round robin).
    func loop(for id: UInt64) -> EventLoop {
        loops[Int(id % UInt64(loops.count))]
    }

    func start() { for loop in loops { loop.start() } }

    /// Cancels every loop's source; each closes its epoll descriptor once Dispatch lets go of it.
    func stop() { for loop in loops { loop.stop() } }

    /// CPUs in this process's affinity mask (what `taskset` or a container allows), else online CPUs.
    static func usableProcessors() -> Int {
        // `sched_getaffinity` is not visible through Swift's Glibc module; /proc has the same mask.
        if let mask = allowedMask() {
            let count = mask.reduce(0) { count, digit in count + (PercentDecoding.hexValue(digit)?.nonzeroBitCount ?? 0)
            }
            if count > 0 { return count }
        }
        return max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }

    /// The hex digits of `Cpus_allowed:` in /proc/self/status.
    private static func allowedMask() -> [UInt8]? {
        let fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 8192)
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        let text = String(decoding: bytes[0..<n], as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix("Cpus_allowed:") {
            return Array(line.dropFirst("Cpus_allowed:".count).utf8.filter { $0 != 0x20 && $0 != 0x09 && $0 != 0x2C })
        }
        return nil
    }
}
