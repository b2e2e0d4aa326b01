// GET /bridge.js: a prebuilt 60 KiB JavaScript body; POST /echo: the request body back (≤ 1 MiB);
// GET /events: not offered (Hummingbird has no built-in SSE helper; the SSE rows are Sigil-only).
// Usage: hb-echo PORT FILE
import Foundation
import Hummingbird
import NIOCore

let arguments = CommandLine.arguments
guard arguments.count == 3, let port = Int(arguments[1]) else {
    print("usage: hb-echo PORT FILE")
    exit(2)
}
let file = try String(contentsOfFile: arguments[2], encoding: .utf8)
let script = ByteBuffer(string: file)

let router = Router()
router.get("/bridge.js") { _, _ in
    Response(
        status: .ok, headers: [.contentType: "text/javascript; charset=utf-8"],
        body: .init(byteBuffer: script))
}
router.post("/echo") { request, _ in
    let body = try await request.body.collect(upTo: 1 << 20)
    return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
}
let app = Application(
    router: router,
    configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: nil),
    onServerRunning: { _ in print("ready") }
)
try await app.runService()
