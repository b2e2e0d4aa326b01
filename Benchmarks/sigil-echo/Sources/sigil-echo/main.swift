// GET /bridge.js: the file, from memory (GatewayHTTP StaticFiles, as `sigil serve` does);
// POST /echo: the request body back; GET /events: a Server-Sent Events stream (for the RSS row).
// Usage: sigil-echo PORT FILE
import Dispatch
import GatewayHTTP
import Glibc
import Logging

let arguments = CommandLine.arguments
guard arguments.count == 3, let port = Int(arguments[1]) else {
    print("usage: sigil-echo PORT FILE")
    exit(2)
}
var limit = rlimit()
if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 {
    limit.rlim_cur = limit.rlim_max
    _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
}
let fd = open(arguments[2], O_RDONLY)
var bytes: [UInt8] = []
var chunk = [UInt8](repeating: 0, count: 65536)
while true {
    let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    if n <= 0 { break }
    bytes += chunk[0..<n]
}
close(fd)
let files = StaticFiles(files: ["/bridge.js": bytes])

var router = Router()
router.get("/bridge.js") { request in files.response(for: request) ?? .status(.notFound) }
router.post("/echo") { request in .json(request.body) }
router.eventStream("/events") { _, stream in stream.sendComment("hello") }

var configuration = HTTPServerConfiguration()
configuration.bindAddress = .host("127.0.0.1")
configuration.port = port
configuration.maxConnections = 4096
let server = HTTPServer(configuration: configuration, handler: router, logger: Logger(label: "sigil-echo"))
try server.start()
print("ready")
fflush(nil)
signal(SIGTERM, SIG_IGN)
let term = DispatchSource.makeSignalSource(signal: SIGTERM, queue: .main)
term.setEventHandler { server.shutdown { exit(0) } }
term.resume()
dispatchMain()
