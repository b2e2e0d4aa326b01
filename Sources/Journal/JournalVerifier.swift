import Keystore
import Primitives

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `verify` found (docs/journal.md §6).
package struct JournalVerification: Sendable, Equatable {
    /// One thing wrong, tied to the first sequence number it concerns.
    package struct Problem: Sendable, Equatable, CustomStringConvertible {
        package enum Kind: String, Sendable, Equatable {
            /// An entry's fields no longer give its hash, or the chain breaks after it (changed and re-hashed),
            /// or a checkpoint records another head hash (history rewritten).
            case modified
            /// A sequence number is absent.
            case missing
            /// An entry is out of order (found after a later one) or appears twice.
            case reordered
            /// The journal ends before a checkpoint's head: its tail was cut, or an older copy replaced it.
            case truncated
            /// A checkpoint's signature does not verify, or checkpoints are missing or out of order.
            case badCheckpoint = "bad-checkpoint"
            /// A checkpoint, the key file or a second key entry names a key other than the journal's.
            case keyReplaced = "key-replaced"
        }
        package var kind: Kind
        /// The first sequence number concerned (0 when none applies, e.g. the key file).
        package var seq: UInt64
        /// The checkpoint number concerned, if any.
        package var checkpoint: UInt64?
        /// A sentence for a person.
        package var message: String

        package var description: String { "\(kind.rawValue) at seq \(seq): \(message)" }
    }

    /// Entries read.
    package var entries: UInt64 = 0
    /// The last entry's sequence number and stored hash (0 and 32 zero bytes when empty).
    package var headSeq: UInt64 = 0
    package var headHash: [UInt8] = JournalCodec.zeroHash
    /// Local checkpoints and those given from elsewhere (mirror, export), checked.
    package var checkpoints = 0
    package var externalCheckpoints = 0
    /// The newest checkpoint that verified (local or external), if any.
    package var lastCheckpoint: JournalCheckpoint?
    /// The journal's checkpoint key (from its key entry), if it has one.
    package var key: [UInt8]?
    /// Everything wrong, ordered by sequence number (at most ``JournalVerifier/maxProblems``).
    package var problems: [Problem] = []
    /// When it was checked (milliseconds since 1970), 0 when the caller did not say.
    package var checkedAt: Int64 = 0

    /// An empty report (nothing read yet).
    package init() {}

    /// Whether nothing is wrong.
    package var isValid: Bool { problems.isEmpty }
    /// The problem with the lowest sequence number.
    package var firstProblem: Problem? { problems.first }

    /// The report as JSON (`sigil journal verify --json`, `/api/journal`).
    package var json: JSONValue {
        var object: JSONObject = [
            "ok": .bool(isValid), "entries": .integer(entries), "headSeq": .integer(headSeq),
            "headHash": .string(Hex.encode(headHash)), "checkpoints": .integer(checkpoints),
            "externalCheckpoints": .integer(externalCheckpoints), "key": key.map { .string(Hex.encode($0)) } ?? .null,
            "checkedAt": .integer(checkedAt),
            "problems": .array(
                problems.map {
                    [
                        "kind": .string($0.kind.rawValue), "seq": .integer($0.seq),
                        "checkpoint": $0.checkpoint.map { .integer($0) } ?? .null, "message": .string($0.message),
                    ]
                }),
        ]
        object["lastCheckpoint"] =
            lastCheckpoint.map { ["number": .integer($0.number), "seq": .integer($0.seq), "time": .integer($0.time)] }
            ?? .null
        return .object(object)
    }
}

/// Walks a journal in storage order, one entry at a time, and names what is wrong: the chain
/// (each entry's fields give its hash; each entry records its predecessor's), the sequence
/// (1, 2, 3, … with no gap or repeat), the key entries, and every checkpoint (signature, key, and
/// the head it records against the entry found there). Pure: the caller reads storage and hashes.
package struct JournalVerifier {
    /// One stored entry as found.
    package struct Row {
        /// The stored sequence number.
        package var seq: UInt64
        /// The stored previous hash.
        package var previousHash: [UInt8]
        /// The hash recomputed from the stored fields.
        package var computedHash: [UInt8]
        /// The stored hash.
        package var storedHash: [UInt8]
        /// For a key entry (`protocol` `sigil`, decision `key`): the public key its `account` names.
        package var introducedKey: [UInt8]?
        /// False when the entry's shown rows are complete but do not give its shown digest.
        package var shownMatchesDigest: Bool

        package init(
            seq: UInt64, previousHash: [UInt8], computedHash: [UInt8], storedHash: [UInt8], introducedKey: [UInt8]?,
            shownMatchesDigest: Bool = true
        ) {
            self.seq = seq
            self.previousHash = previousHash
            self.computedHash = computedHash
            self.storedHash = storedHash
            self.introducedKey = introducedKey
            self.shownMatchesDigest = shownMatchesDigest
        }
    }

    /// The most problems reported (the first is what matters; the rest bound the output).
    package static let maxProblems = 100

    private let local: [JournalCheckpoint]
    private let external: [JournalCheckpoint]
    private let keyFileKey: [UInt8]?
    private let watched: Set<UInt64>
    private var report = JournalVerification()
    private var expected: UInt64 = 1
    private var position: UInt64 = 0
    private var lastStoredHash = JournalCodec.zeroHash
    private var headHash = JournalCodec.zeroHash
    private var lastSuspect = false
    private var gaps: Set<UInt64> = []
    private var hashes: [UInt64: [UInt8]] = [:]
    private var keys: [(seq: UInt64, key: [UInt8])] = []
    private var problems: [JournalVerification.Problem] = []

    /// - Parameters:
    ///   - checkpoints: the journal's own checkpoints, in storage order.
    ///   - external: checkpoints from elsewhere (the mirror file, an exported copy).
    ///   - keyFileKey: the public key in `journal-key.json`, if the file exists.
    package init(checkpoints: [JournalCheckpoint], external: [JournalCheckpoint] = [], keyFileKey: [UInt8]? = nil) {
        local = checkpoints
        self.external = external
        self.keyFileKey = keyFileKey
        watched = Set((checkpoints + external).map(\.seq))
    }

    private mutating func flag(
        _ kind: JournalVerification.Problem.Kind, _ seq: UInt64, checkpoint: UInt64? = nil, _ message: String
    ) {
        problems.append(.init(kind: kind, seq: seq, checkpoint: checkpoint, message: message))
    }

    /// Takes the next stored entry.
    package mutating func feed(_ row: Row) {
        row.previousHash.withUnsafeBytes { previous in
            row.computedHash.withUnsafeBytes { computed in
                row.storedHash.withUnsafeBytes { stored in
                    feed(
                        seq: row.seq, previousHash: previous, computedHash: computed, storedHash: stored,
                        introducedKey: row.introducedKey, shownMatchesDigest: row.shownMatchesDigest)
                }
            }
        }
    }

    /// Takes the next stored entry, its hashes as raw memory (the verification scan passes SQLite's
    /// column memory and its own buffer: no allocation per entry).
    package mutating func feed(
        seq storedSeq: UInt64, previousHash: UnsafeRawBufferPointer, computedHash: UnsafeRawBufferPointer,
        storedHash: UnsafeRawBufferPointer, introducedKey: [UInt8]?, shownMatchesDigest: Bool
    ) {
        position += 1
        report.entries += 1
        var seq = storedSeq
        var suspect = false
        if !Self.same(computedHash, storedHash) {
            // The fields (its sequence number included) cannot be trusted: it stands where `expected` was due.
            seq = expected
            suspect = true
            flag(.modified, seq, "entry \(seq) (position \(position)) was changed: its fields do not give its hash")
        } else if storedSeq != expected {
            suspect = true
            if storedSeq > expected {
                // Either missing or found later (reordered): decided when the walk ends or the number shows up.
                if storedSeq - expected <= 1_000_000 {
                    for missing in expected..<storedSeq { gaps.insert(missing) }
                } else {
                    flag(.missing, expected, "entries \(expected) to \(storedSeq - 1) are missing")
                }
            } else if gaps.remove(storedSeq) != nil {
                flag(.reordered, storedSeq, "entry \(storedSeq) is stored after entry \(expected - 1)")
            } else {
                flag(.reordered, storedSeq, "entry \(storedSeq) appears again at position \(position)")
            }
        }
        if !suspect && !lastSuspect && !lastStoredHash.withUnsafeBytes({ Self.same(previousHash, $0) }) {
            let before = seq > 1 ? seq - 1 : seq
            flag(
                .modified, before,
                "the chain breaks between entries \(before) and \(seq): entry \(before) was changed and re-hashed "
                    + "(entry \(seq) records another hash for it)")
        }
        if !suspect {
            if !shownMatchesDigest {
                flag(.modified, seq, "entry \(seq): its shown rows do not give its shown digest")
            }
            if watched.contains(seq), hashes[seq] == nil { hashes[seq] = [UInt8](storedHash) }
            if let key = introducedKey {
                if let first = keys.first {
                    flag(
                        .keyReplaced, seq,
                        "entry \(seq) introduces another checkpoint key \(Hex.encode(key)) (the journal's key, "
                            + "entry \(first.seq), is \(Hex.encode(first.key)); keys are never rotated)")
                }
                keys.append((seq, key))
            }
        }
        if seq >= expected {
            expected = seq + 1
            report.headSeq = seq
            Self.overwrite(&headHash, with: storedHash)
        }
        Self.overwrite(&lastStoredHash, with: storedHash)
        lastSuspect = suspect
    }

    /// Whether two byte ranges are equal.
    package static func same(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        guard let x = a.baseAddress, let y = b.baseAddress else { return true }
        return memcmp(x, y, a.count) == 0
    }

    /// Copies `bytes` into `array`, reusing its storage when the sizes match.
    package static func overwrite(_ array: inout [UInt8], with bytes: UnsafeRawBufferPointer) {
        guard array.count == bytes.count else {
            array = [UInt8](bytes)
            return
        }
        array.withUnsafeMutableBytes { $0.copyMemory(from: bytes) }
    }

    /// The key in force for a checkpoint at `seq`: the journal's first key entry at or before it.
    private func key(at seq: UInt64) -> (seq: UInt64, key: [UInt8])? {
        keys.first.flatMap { $0.seq <= seq ? $0 : nil }
    }

    /// Ends the walk and checks the checkpoints and the key file.
    package mutating func finish() -> JournalVerification {
        for missing in gaps.sorted() { flag(.missing, missing, "entry \(missing) is missing") }
        report.key = keys.first?.key
        report.headHash = headHash
        let head = report.headSeq
        var expectedNumber: UInt64 = 1
        var lastGood: JournalCheckpoint?
        for checkpoint in local {
            report.checkpoints += 1
            if checkpoint.number != expectedNumber {
                flag(
                    .badCheckpoint, checkpoint.seq, checkpoint: checkpoint.number,
                    checkpoint.number > expectedNumber
                        ? "checkpoints \(expectedNumber) to \(checkpoint.number - 1) are missing"
                        : "checkpoint \(checkpoint.number) is out of order")
            }
            expectedNumber = max(expectedNumber, checkpoint.number + 1)
            if check(checkpoint, source: "checkpoint", head: head, lastGood: lastGood) { lastGood = checkpoint }
        }
        for checkpoint in external {
            report.externalCheckpoints += 1
            if let twin = local.first(where: { $0.number == checkpoint.number }), twin != checkpoint {
                flag(
                    .badCheckpoint, checkpoint.seq, checkpoint: checkpoint.number,
                    "checkpoint \(checkpoint.number) in the journal differs from the copy kept elsewhere")
            }
            if check(checkpoint, source: "checkpoint (kept elsewhere)", head: head, lastGood: lastGood),
                checkpoint.seq >= (lastGood?.seq ?? 0)
            {
                lastGood = checkpoint
            }
        }
        report.lastCheckpoint = lastGood
        if let keyFileKey, let journalKey = keys.first, keyFileKey != journalKey.key {
            flag(
                .keyReplaced, journalKey.seq,
                "\(JournalKey.fileName) holds \(Hex.encode(keyFileKey)), not the journal's key "
                    + "\(Hex.encode(journalKey.key)) (entry \(journalKey.seq))")
        }
        problems.sort { ($0.seq, $0.checkpoint ?? 0) < ($1.seq, $1.checkpoint ?? 0) }
        report.problems = Array(problems.prefix(Self.maxProblems))
        return report
    }

    /// Checks one checkpoint; - Returns: whether it is sound.
    private mutating func check(
        _ checkpoint: JournalCheckpoint, source: String, head: UInt64, lastGood: JournalCheckpoint?
    ) -> Bool {
        let number = checkpoint.number
        guard checkpoint.signatureIsValid else {
            flag(
                .badCheckpoint, checkpoint.seq, checkpoint: number, "\(source) \(number): its signature does not verify"
            )
            return false
        }
        guard let inForce = key(at: checkpoint.seq) else {
            flag(
                .keyReplaced, checkpoint.seq, checkpoint: number,
                "\(source) \(number) is signed by \(Hex.encode(checkpoint.key)), but the journal introduces no key "
                    + "before entry \(checkpoint.seq)")
            return false
        }
        guard inForce.key == checkpoint.key else {
            flag(
                .keyReplaced, checkpoint.seq, checkpoint: number,
                "\(source) \(number) is signed by \(Hex.encode(checkpoint.key)), not the journal's key "
                    + "\(Hex.encode(inForce.key)) (entry \(inForce.seq))")
            return false
        }
        guard checkpoint.seq <= head else {
            let after = lastGood.map { "after checkpoint \($0.number) (entry \($0.seq))" } ?? "before any checkpoint"
            flag(
                .truncated, head + 1, checkpoint: number,
                "truncated \(after): \(source) \(number) records entry \(checkpoint.seq), "
                    + "but the journal ends at entry \(head)")
            return false
        }
        guard let found = hashes[checkpoint.seq] else { return false }  // that entry is already reported
        guard found == checkpoint.head else {
            flag(
                .modified, checkpoint.seq, checkpoint: number,
                "entries up to \(checkpoint.seq) were rewritten: \(source) \(number) records another hash for entry "
                    + "\(checkpoint.seq)")
            return false
        }
        return true
    }
}
