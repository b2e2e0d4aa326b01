import Foundation
import Keystore
import SigilTesting
import StateStore

// Internal test tool; see README.md. Exit status 0 = all checks passed.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data(("KeystoreStress: " + message + "\n").utf8))
    exit(1)
}

func option(_ name: String, _ defaultValue: Int) -> Int {
    let args = CommandLine.arguments
    guard let i = args.firstIndex(of: name), i + 1 < args.count, let v = Int(args[i + 1]) else { return defaultValue }
    return v
}

/// `--sync commit|periodic` (the store's durability, `sigil serve --journal-sync`); commit by default.
func durabilityOption() -> SQLiteStateStore.Durability {
    let args = CommandLine.arguments
    guard let i = args.firstIndex(of: "--sync"), i + 1 < args.count else { return .commit }
    guard let durability = SQLiteStateStore.Durability(rawValue: args[i + 1]) else { fail("--sync commit|periodic") }
    return durability
}

/// The path of this executable, to spawn writers.
func selfPath() -> String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
}

/// Starts a writer; its stdout is collected through a pipe.
func spawnWriter(_ dir: String, round: Int, writer: Int) throws -> (Process, Pipe) {
    try spawn(["write", dir, String(round), String(writer)])
}

/// Starts this executable with `arguments`; its stdout is collected through a pipe.
func spawn(_ arguments: [String]) throws -> (Process, Pipe) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: selfPath())
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    return (process, pipe)
}

/// Waits for the writer's `R ready` line (it has opened the store) and returns it.
func awaitReady(_ pipe: Pipe) -> String {
    var line: [UInt8] = []
    var byte: UInt8 = 0
    let fd = pipe.fileHandleForReading.fileDescriptor
    while read(fd, &byte, 1) == 1 {
        line.append(byte)
        if byte == 0x0a { break }
    }
    return String(decoding: line, as: UTF8.self)
}

/// SIGKILLs a writer and returns everything it printed.
func killAndCollect(_ process: Process, _ pipe: Pipe) -> String {
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    return String(decoding: data, as: UTF8.self)
}

let args = CommandLine.arguments
guard args.count >= 3 else {
    fail(
        "usage: KeystoreStress write|crash|concurrent|lock|journal-write|journal-crash|journal-fill DIR [options]  "
            + "(internal test tool)")
}
let command = args[1]
let dir = args[2]

do {
    switch command {
    case "write":
        let round = args.count > 3 ? UInt64(args[3]) ?? 0 : 0
        let writer = args.count > 4 ? UInt64(args[4]) ?? 0 : 0
        try StressWriter(directory: try DataDirectory.open(dir), round: round, writer: writer).run()

    case "crash":
        let rounds = option("--rounds", 300)
        let seconds = option("--seconds", 90)
        var rng = SplitMix64(seed: UInt64(option("--seed", Int(Date().timeIntervalSince1970))))
        var ledger = Ledger()
        let start = Date()
        var done = 0
        var items = 0
        var startupTime = 0.0
        var verifyTime = 0.0
        while done < rounds && Date().timeIntervalSince(start) < Double(seconds) {
            let spawned = Date()
            let (process, pipe) = try spawnWriter(dir, round: done + 1, writer: 0)
            let ready = awaitReady(pipe)
            startupTime += Date().timeIntervalSince(spawned)
            guard ready.hasPrefix("R ") else { fail("round \(done + 1): writer did not start: \(ready)") }
            let delay = UInt32.random(in: 0...300_000, using: &rng)  // microseconds after the store is open
            usleep(delay)
            ledger.feed(killAndCollect(process, pipe))
            let verifying = Date()
            defer { verifyTime += Date().timeIntervalSince(verifying) }
            do {
                items = try ledger.verify(dir)
            } catch {
                fail("round \(done + 1) (killed after \(delay) µs): \(error)")
            }
            done += 1
        }
        print(
            "crash: \(done) SIGKILLed writers, \(ledger.commits) committed changes, \(ledger.interrupted) changes "
                + "in flight at a kill, \(items) items on disk, all intact "
                + String(format: "(writer start-up %.1f s, verification %.1f s in total)", startupTime, verifyTime))
        let required = min(rounds, 100)
        if done < required { fail("only \(done) rounds ran in \(seconds) s; expected at least \(required)") }

    case "concurrent":
        let writers = option("--writers", 2)
        let seconds = option("--seconds", 10)
        var ledger = Ledger()
        var running: [(Process, Pipe)] = []
        for w in 0..<writers { running.append(try spawnWriter(dir, round: 1_000_000, writer: w + 1)) }
        // Each pipe must be drained while the writers run, or they block on a full pipe.
        let outputs = running.map { (_, pipe) in
            let box = OutputBox()
            pipe.fileHandleForReading.readabilityHandler = { handle in box.append(handle.availableData) }
            return box
        }
        usleep(UInt32(seconds) * 1_000_000)
        for (i, (process, pipe)) in running.enumerated() {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            pipe.fileHandleForReading.readabilityHandler = nil
            outputs[i].append(pipe.fileHandleForReading.readDataToEndOfFile())
        }
        for box in outputs { ledger.feed(box.text) }
        let items = try ledger.verify(dir)
        print(
            "concurrent: \(writers) writers for \(seconds) s, \(ledger.commits) committed changes, \(items) items, all intact"
        )
        if ledger.commits < writers * 5 { fail("too few commits (\(ledger.commits)) to say anything") }

    case "journal-write":
        try await JournalStress.write(
            directory: dir, round: args.count > 3 ? UInt64(args[3]) ?? 0 : 0, durability: durabilityOption())

    case "journal-crash":
        try JournalStress.crash(
            directory: dir, rounds: option("--rounds", 300), seconds: option("--seconds", 90),
            seed: UInt64(truncatingIfNeeded: option("--seed", Int(Date().timeIntervalSince1970))),
            maxDelay: UInt32(clamping: option("--max-delay-us", 150_000)),
            roundsPerJournal: option("--rounds-per-journal", 10), durability: durabilityOption())

    case "journal-fill":
        try JournalStress.fill(
            directory: dir, count: option("--entries", 1_000_000), batchSize: option("--batch", 10_000))

    case "lock":
        let directory = try DataDirectory.open(dir)
        let lock = try directory.lockForServing()
        FileHandle.standardOutput.write(Data("locked \(getpid())\n".utf8))
        while true { pause() }
        _ = lock

    default:
        fail("unknown command \(command)")
    }
} catch {
    fail("\(error)")
}

/// Collects a pipe's output from its readability handler thread.
final class OutputBox: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func append(_ more: Data) { lock.withLock { data.append(more) } }
    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
