import Dispatch
import Glibc

/// A few serial queues that connection queues target, one per CPU this process may run on (like
/// event loops). Fewer threads than "every connection on the global concurrent queue" means fewer
/// context switches and better locality under load; handlers must not block anyway.
struct QueuePool: Sendable {
    let queues: [DispatchQueue]

    init(label: String) {
        let count = max(1, min(QueuePool.usableProcessors(), 64))
        queues = (0..<count).map { DispatchQueue(label: "\(label).\($0)", qos: .userInitiated) }
    }

    /// The queue for the connection with `id` (round robin).
    func queue(for id: UInt64) -> DispatchQueue {
        queues[Int(id % UInt64(queues.count))]
    }

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
