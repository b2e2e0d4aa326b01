import Glibc
import Testing

@testable import GatewayHTTP

extension HTTPServerTests {
    /// With the descriptor table full, accept fails with EMFILE; the server pauses accepting instead
    /// of spinning, keeps serving its open connections, and accepts the waiting client once
    /// descriptors are available again.
    ///
    /// It fills the whole descriptor table and lowers RLIMIT_NOFILE for the *process*, so any suite
    /// running in parallel would fail with EMFILE (and could take the one free slot this test leaves).
    /// It therefore runs alone, in its own `swift test` process: scripts/test.d/31-descriptor-exhaustion.sh
    /// sets SIGIL_TEST_DESCRIPTOR_EXHAUSTION=1 and checks that exactly this test ran and passed.
    @Test(
        .enabled(
            if: getenv("SIGIL_TEST_DESCRIPTOR_EXHAUSTION") != nil,
            "runs alone (process-wide descriptor limit): scripts/test.d/31-descriptor-exhaustion.sh"))
    func backsOffWhenOutOfDescriptorsAndRecovers() async throws {
        try await withServer(handler: Self.echoRouter()) { server in
            var saved = rlimit()
            getrlimit(Int32(RLIMIT_NOFILE.rawValue), &saved)
            defer { setrlimit(Int32(RLIMIT_NOFILE.rawValue), &saved) }

            let first = try TestClient(port: server.port)
            try first.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try first.readResponse().text == "hello")

            // Room for exactly one more descriptor (the next client's socket): fill every free number
            // up to the highest open one, then cap the table just above it. The server's accept of
            // that connection then fails with EMFILE.
            var fillers: [Int32] = []
            defer { for fd in fillers { close(fd) } }
            let highest = Self.highestDescriptor()
            while true {
                let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
                if fd < 0 || fd > highest {
                    if fd >= 0 { close(fd) }
                    break
                }
                fillers.append(fd)
            }
            var tight = saved
            tight.rlim_cur = rlim_t(highest + 2)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &tight)
            let waiting = try TestClient(port: server.port)
            try waiting.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
            // The open connection is still served while accept is paused.
            try first.send("GET /path/still HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try first.readResponse().text == "still")
            #expect(server.connectionCount == 1)

            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &saved)
            #expect(try waiting.readResponse().text == "hello")
        }
    }

    static func highestDescriptor() -> Int {
        guard let dir = opendir("/proc/self/fd") else { return 0 }
        defer { closedir(dir) }
        var highest = 0
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let n = Int(name) { highest = max(highest, n) }
        }
        return highest
    }
}
