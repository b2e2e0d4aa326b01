import Foundation
import Journal
import Keystore
import Primitives
import SigilTesting
import SigningKeys
import StateStore

/// The signing journal under SIGKILL (docs/journal.md §7): a writer process signs messages as
/// fast as it can from several tasks, appends each signature's entry through `JournalWriter`
/// (group commit) and only then prints it (`A seq signature`), as the gateway only then replies;
/// another task checkpoints every few milliseconds. The harness kills it at random instants and
/// checks after each kill that the chain verifies, that the journal still holds what the previous
/// rounds saw (the entry at the previous head has the same hash), and that every signature the
/// "client" received is in the journal at its sequence number.
enum JournalStress {
    static func key() throws -> JournalKey {
        JournalKey(pair: try Ed25519KeyPair(seed: Array(repeating: 0x4a, count: 32)))
    }

    static func keyEntry(_ key: JournalKey) -> JournalEntry.Content {
        content(
            protocolName: "sigil", method: "journal.key", account: Hex.encode(key.publicKey), decision: "key",
            result: [])
    }

    static func content(
        protocolName: String = "polkadot", method: String = "pub(bytes.sign)", account: String, decision: String,
        result: [UInt8], shown: [JournalShown.Row] = []
    ) -> JournalEntry.Content {
        JournalEntry.Content(
            protocolName: protocolName, method: method, origin: protocolName == "sigil" ? "" : "https://stress.example",
            appName: "", account: account, decision: decision, detail: "", summaryDigest: [],
            subjectDigest: [], result: result, shownTruncated: false, shown: JournalShown.encode(shown))
    }

    /// The writer: `journal-write DIR ROUND [--sync commit|periodic]`. Never returns. With
    /// `periodic` an acknowledged entry has reached the OS, not the disk: a SIGKILL must lose none.
    static func write(directory: String, round: UInt64, durability: SQLiteStateStore.Durability) async throws -> Never {
        let store = try SQLiteStateStore(path: directory + "/state.sqlite", durability: durability)
        let key = try key()
        if try store.journalKey() == nil { try store.appendJournal([keyEntry(key)]) }
        _ = try store.checkpointJournal(key: key)  // as `sigil serve` does at start
        let writer = JournalWriter(store: store)
        let signer = try Ed25519KeyPair(seed: Array(repeating: 0x5b, count: 32))
        let account = Hex.encode(signer.publicKey)
        emit("R ready")
        Task.detached {
            while true {
                try? await Task.sleep(for: .milliseconds(15))
                _ = try? store.checkpointJournal(key: key)
            }
        }
        await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var n = 0
                    while true {
                        n += 1
                        let message = Array("round \(round) task \(task) message \(n)".utf8)
                        let signature = try signer.sign(message)
                        let rows = [JournalShown.Row("message", String(decoding: message, as: UTF8.self))]
                        var entry = content(account: account, decision: "auto-approved", result: signature, shown: rows)
                        entry.summaryDigest = JournalShown.digest(of: rows)
                        entry.subjectDigest = JournalCodec.hash(message)
                        let stored = try await writer.append(entry)
                        emit("A \(stored.seq) \(Hex.encode(signature))")
                    }
                }
            }
        }
        fail("journal writer stopped")
    }

    /// The harness: `journal-crash DIR [--rounds N] [--seconds S] [--seed X] [--max-delay-us U]
    /// [--rounds-per-journal K] [--sync commit|periodic]`. Every K rounds the writers start a new journal (a new directory
    /// under DIR), so that verifying after each kill stays cheap in a debug build.
    static func crash(
        directory root: String, rounds: Int, seconds: Int, seed: UInt64, maxDelay: UInt32, roundsPerJournal: Int,
        durability: SQLiteStateStore.Durability
    ) throws {
        var rng = SplitMix64(seed: seed)
        let start = Date()
        var done = 0
        var acknowledged = 0
        var previousHead: (seq: UInt64, hash: [UInt8])?
        var verifyTime = 0.0
        var finished: UInt64 = 0  // entries of the journals left behind
        var current: UInt64 = 0
        var journals = 0
        var directory = root
        while done < rounds && Date().timeIntervalSince(start) < Double(seconds) {
            if done % max(1, roundsPerJournal) == 0 {
                directory = root + "/journal-\(done / max(1, roundsPerJournal) + 1)"
                _ = try DataDirectory.open(directory)  // 0700, as `sigil journal verify` requires
                previousHead = nil
            }
            let (process, pipe) = try spawn([
                "journal-write", directory, String(done + 1), "--sync", durability.rawValue,
            ])
            let ready = awaitReady(pipe)
            guard ready.hasPrefix("R ") else { fail("round \(done + 1): writer did not start: \(ready)") }
            let delay = UInt32.random(in: 0...maxDelay, using: &rng)
            usleep(delay)
            let output = killAndCollect(process, pipe)
            var acks: [(UInt64, [UInt8])] = []
            for line in output.split(separator: "\n") where line.hasPrefix("A ") {
                let parts = line.split(separator: " ")
                // A line cut by the kill was never complete: the client did not receive it.
                guard parts.count == 3, let seq = UInt64(parts[1]),
                    let signature = try? Hex.decode(parts[2], prefix: .required, byteCount: 64)
                else { continue }
                acks.append((seq, signature))
            }
            let verifying = Date()
            let store = try SQLiteStateStore(path: directory + "/state.sqlite")
            let report = try store.verifyJournal()
            guard report.isValid else {
                fail("round \(done + 1) (killed after \(delay) µs): the journal does not verify: \(report.problems)")
            }
            if let previousHead {
                guard let kept = try store.journalEntry(seq: previousHead.seq), kept.hash == previousHead.hash else {
                    fail("round \(done + 1): entry \(previousHead.seq), the head after the previous round, changed")
                }
            }
            // One read of the journal for all of this round's acknowledgements.
            let wanted = Set(acks.map(\.0))
            var found: [UInt64: [UInt8]] = [:]
            try store.forEachJournalEntry { entry in
                if wanted.contains(entry.seq) { found[entry.seq] = entry.content.result }
            }
            for (seq, signature) in acks {
                guard found[seq] == signature else {
                    fail(
                        "round \(done + 1) (killed after \(delay) µs): signature acknowledged as entry \(seq) is not in the journal"
                    )
                }
            }
            if previousHead == nil {
                journals += 1
                finished += current
            }
            previousHead = try store.journalHead()
            current = report.entries
            verifyTime += Date().timeIntervalSince(verifying)
            acknowledged += acks.count
            done += 1
        }
        print(
            "journal-crash (--sync \(durability.rawValue)): \(done) SIGKILLed writers, \(acknowledged) acknowledged signatures all in the journal, "
                + "\(finished + current) entries in \(journals) journals, the chain verified after every kill "
                + String(format: "(verification %.1f s in total)", verifyTime))
        let required = min(rounds, 100)
        if done < required { fail("only \(done) rounds ran in \(seconds) s; expected at least \(required)") }
        if acknowledged == 0 { fail("no signature was acknowledged: nothing was tested") }
    }

    /// `journal-fill DIR N`: a journal of N entries (plus its key entry), checkpointed every 100,000,
    /// written in large transactions (scripts/bench-journal).
    static func fill(directory: String, count: Int, batchSize: Int = 10_000) throws {
        let store = try SQLiteStateStore(path: try DataDirectory.open(directory).databasePath)
        let key = try key()
        if try store.journalKey() == nil { try store.appendJournal([keyEntry(key)]) }
        let signer = try Ed25519KeyPair(seed: Array(repeating: 0x5b, count: 32))
        let signature = try signer.sign(Array("bench".utf8))
        var written = 0
        while written < count {
            let batch = min(batchSize, count - written)
            try store.appendJournal(
                (0..<batch).map { i in
                    let rows = [
                        JournalShown.Row("site", "https://bench.example"),
                        JournalShown.Row(
                            "call", "balances.transfer_keep_alive(dest: 5FHneW46…, value: \(written + i))"),
                    ]
                    var entry = content(
                        method: "pub(extrinsic.sign)", account: "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY",
                        decision: "approved", result: [0x01] + signature, shown: rows)
                    entry.summaryDigest = JournalShown.digest(of: rows)
                    entry.subjectDigest = JournalCodec.hash(Array("payload \(written + i)".utf8))
                    return entry
                })
            written += batch
            if written % 100_000 == 0 || written == count { _ = try store.checkpointJournal(key: key) }
        }
        print("journal-fill: \(try store.journalCount()) entries in \(directory)/state.sqlite")
    }
}

/// One line on stdout, in one write(2) (whole lines even from several tasks at once).
func emit(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}
