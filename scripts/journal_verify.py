#!/usr/bin/env python3
"""Independent verifier of a Sigil journal export (`sigil journal export`), written from the
byte-level specification in docs/journal.md alone: it never runs or imports Sigil.

Python standard library only: hashlib's BLAKE2b for the chain, and a small RFC 8032 Ed25519
verifier (below) for the checkpoints.

Usage: journal_verify.py EXPORT.jsonl [--checkpoints FILE ...] [--json]
Exit status 0 when the export verifies, 1 when it does not (the first problem is printed with
its sequence number), 2 for unusable input.
"""
import argparse
import hashlib
import json
import struct
import sys

# --- docs/journal.md §2-§4: encodings -------------------------------------------------------------

VERSION = 1
ZERO = bytes(32)


def blake2b256(data):
    return hashlib.blake2b(data, digest_size=32).digest()


def u32(n):
    return struct.pack(">I", n)


def u64(n):
    return struct.pack(">Q", n)


def i64(n):
    return struct.pack(">q", n)


def text(s):
    b = s.encode("utf-8")
    return u32(len(b)) + b


def blob(b):
    return u32(len(b)) + b


def shown_bytes(rows):
    out = u32(len(rows))
    for row in rows:
        out += text(row["label"]) + text(row["value"]) + (b"\x01" if row["warning"] else b"\x00")
    return out


def hexbytes(s, field):
    if not isinstance(s, str) or not s.startswith("0x"):
        raise ValueError(f"{field} is not 0x hex")
    return bytes.fromhex(s[2:])


def entry_bytes(e):
    shown = hexbytes(e["shownRaw"], "shownRaw") if "shownRaw" in e else shown_bytes(e["shown"])
    return (b"SGJE" + bytes([VERSION]) + u64(e["seq"]) + i64(e["time"]) + hexbytes(e["prev"], "prev")
            + text(e["protocol"]) + text(e["method"]) + text(e["origin"]) + text(e["app"]) + text(e["account"])
            + text(e["decision"]) + text(e["detail"])
            + blob(hexbytes(e["summaryDigest"], "summaryDigest")) + blob(hexbytes(e["subjectDigest"], "subjectDigest"))
            + blob(hexbytes(e["result"], "result"))
            + (b"\x01" if e["shownTruncated"] else b"\x00") + blob(shown))


def summary_digest(rows):
    return blake2b256(b"SGJS" + bytes([VERSION]) + shown_bytes(rows))


def checkpoint_bytes(c):
    return (b"SGJC" + bytes([VERSION]) + u64(c["number"]) + u64(c["seq"]) + hexbytes(c["head"], "head")
            + i64(c["time"]) + hexbytes(c["key"], "key"))


# --- RFC 8032 Ed25519 verification (section 5.1.7), pure Python --------------------------------------

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)


def _add(p1, p2):
    x1, y1, z1, t1 = p1
    x2, y2, z2, t2 = p2
    a = (y1 - x1) * (y2 - x2) % P
    b = (y1 + x1) * (y2 + x2) % P
    c = 2 * t1 * t2 * D % P
    d = 2 * z1 * z2 % P
    e, f, g, h = b - a, d - c, d + c, b + a
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def _mul(s, point):
    q = (0, 1, 1, 0)
    while s > 0:
        if s & 1:
            q = _add(q, point)
        point = _add(point, point)
        s >>= 1
    return q


def _equal(p1, p2):
    x1, y1, z1, _ = p1
    x2, y2, z2, _ = p2
    return (x1 * z2 - x2 * z1) % P == 0 and (y1 * z2 - y2 * z1) % P == 0


def _recover_x(y, sign):
    if y >= P:
        return None
    x2 = (y * y - 1) * pow(D * y * y + 1, P - 2, P)
    if x2 == 0:
        return None if sign else 0
    x = pow(x2, (P + 3) // 8, P)
    if (x * x - x2) % P != 0:
        x = x * SQRT_M1 % P
    if (x * x - x2) % P != 0:
        return None
    if (x & 1) != sign:
        x = P - x
    return x


def _decompress(b):
    if len(b) != 32:
        return None
    y = int.from_bytes(b, "little")
    sign = y >> 255
    y &= (1 << 255) - 1
    x = _recover_x(y, sign)
    return None if x is None else (x, y, 1, x * y % P)


G = (_recover_x(4 * pow(5, P - 2, P) % P, 0), 4 * pow(5, P - 2, P) % P, 1, 0)
G = (G[0], G[1], 1, G[0] * G[1] % P)


def ed25519_verify(public, message, signature):
    if len(public) != 32 or len(signature) != 64:
        return False
    a = _decompress(public)
    r = _decompress(signature[:32])
    if a is None or r is None:
        return False
    s = int.from_bytes(signature[32:], "little")
    if s >= L:
        return False
    h = int.from_bytes(hashlib.sha512(signature[:32] + public + message).digest(), "little") % L
    return _equal(_mul(s, G), _add(r, _mul(h, a)))


# --- docs/journal.md §6: the checks ------------------------------------------------------------------

class Problems:
    def __init__(self):
        self.items = []

    def add(self, kind, seq, message, checkpoint=None):
        self.items.append({"kind": kind, "seq": seq, "checkpoint": checkpoint, "message": message})

    def sorted(self):
        return sorted(self.items, key=lambda p: (p["seq"], p["checkpoint"] or 0))


def verify(entries, checkpoints, external):
    """entries: export lines of type entry, in file order; checkpoints: the export's own; external: others."""
    problems = Problems()
    expected, last_hash, last_suspect = 1, ZERO, False
    gaps, hashes, keys = set(), {}, []
    head_seq, head_hash = 0, ZERO
    for position, e in enumerate(entries, 1):
        seq = e["seq"]
        stored = hexbytes(e["hash"], "hash")
        suspect = False
        if blake2b256(entry_bytes(e)) != stored:
            seq, suspect = expected, True
            problems.add("modified", seq, f"entry {seq} (line {position}) was changed: its fields do not give its hash")
        elif seq != expected:
            suspect = True
            if seq > expected:
                gaps.update(range(expected, seq))
            elif seq in gaps:
                gaps.discard(seq)
                problems.add("reordered", seq, f"entry {seq} is stored after entry {expected - 1}")
            else:
                problems.add("reordered", seq, f"entry {seq} appears again at line {position}")
        if not suspect and not last_suspect and hexbytes(e["prev"], "prev") != last_hash:
            before = seq - 1 if seq > 1 else seq
            problems.add("modified", before, f"the chain breaks between entries {before} and {seq}")
        if not suspect:
            hashes.setdefault(seq, stored)
            if "shownRaw" not in e and not e["shownTruncated"] and e["summaryDigest"] != "0x" \
                    and hexbytes(e["summaryDigest"], "summaryDigest") != summary_digest(e["shown"]):
                problems.add("modified", seq, f"entry {seq}: the shown rows do not give its shown digest")
            if e["protocol"] == "sigil" and e["decision"] == "key":
                key = hexbytes(e["account"], "account")
                if keys:
                    problems.add("key-replaced", seq, f"entry {seq} introduces another checkpoint key")
                keys.append((seq, key))
        if seq >= expected:
            expected, head_seq, head_hash = seq + 1, seq, stored
        last_hash, last_suspect = stored, suspect
    for missing in sorted(gaps):
        problems.add("missing", missing, f"entry {missing} is missing")

    def check(c, source):
        number, seq = c["number"], c["seq"]
        if not ed25519_verify(hexbytes(c["key"], "key"), checkpoint_bytes(c), hexbytes(c["signature"], "signature")):
            problems.add("bad-checkpoint", seq, f"{source} {number}: its signature does not verify", number)
            return False
        if not keys or keys[0][0] > seq:
            problems.add("key-replaced", seq, f"{source} {number}: no journal key before entry {seq}", number)
            return False
        if hexbytes(c["key"], "key") != keys[0][1]:
            problems.add("key-replaced", seq, f"{source} {number} is signed by another key than the journal's", number)
            return False
        if seq > head_seq:
            problems.add("truncated", head_seq + 1,
                         f"truncated: {source} {number} records entry {seq}, the journal ends at {head_seq}", number)
            return False
        if seq in hashes and hashes[seq] != hexbytes(c["head"], "head"):
            problems.add("modified", seq, f"entries up to {seq} were rewritten ({source} {number} differs)", number)
            return False
        return True

    number = 1
    for c in checkpoints:
        if c["number"] != number:
            problems.add("bad-checkpoint", c["seq"], f"checkpoint {c['number']} out of sequence (expected {number})",
                         c["number"])
        number = max(number, c["number"] + 1)
        check(c, "checkpoint")
    own = {c["number"]: c for c in checkpoints}
    for c in external:
        if c["number"] in own and own[c["number"]] != c:
            problems.add("bad-checkpoint", c["seq"], f"checkpoint {c['number']} differs from the copy kept elsewhere",
                         c["number"])
        check(c, "external checkpoint")
    return {"ok": not problems.items, "entries": len(entries), "headSeq": head_seq, "headHash": "0x" + head_hash.hex(),
            "checkpoints": len(checkpoints), "externalCheckpoints": len(external),
            "key": "0x" + keys[0][1].hex() if keys else None, "problems": problems.sorted()}


def read_lines(path):
    entries, checkpoints = [], []
    with open(path, "rb") as f:
        for number, raw in enumerate(f, 1):
            if not raw.strip():
                continue
            try:
                line = json.loads(raw)
            except ValueError:
                raise SystemExit(f"{path} line {number}: not JSON")
            if line.get("type") == "entry":
                if line.get("v") != VERSION:
                    raise SystemExit(f"{path} line {number}: entry version {line.get('v')} is not {VERSION}")
                entries.append(line)
            elif line.get("type") == "checkpoint":
                checkpoints.append(line)
    return entries, checkpoints


def self_test():
    """RFC 8032 §7.1 test 2 (one-byte message), so a broken verifier cannot pass everything."""
    public = bytes.fromhex("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c")
    signature = bytes.fromhex("92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
                              "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00")
    assert ed25519_verify(public, b"\x72", signature), "ed25519 self-test failed"
    assert not ed25519_verify(public, b"\x73", signature), "ed25519 self-test accepted a wrong message"
    assert blake2b256(b"abc").hex().startswith("bddd813c"), "blake2b-256 self-test failed"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("export")
    ap.add_argument("--checkpoints", action="append", default=[],
                    help="another JSON Lines file with checkpoints (the mirror file, an older export)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    self_test()
    try:
        entries, checkpoints = read_lines(args.export)
        external = []
        for path in args.checkpoints:
            external += read_lines(path)[1]
        report = verify(entries, checkpoints, external)
    except (KeyError, ValueError, TypeError) as e:
        print(f"unusable export: {type(e).__name__}: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report, indent=2, sort_keys=True))
    elif report["ok"]:
        print(f"journal export verifies: {report['entries']} entries (head {report['headSeq']}), "
              f"{report['checkpoints']} checkpoints + {report['externalCheckpoints']} external")
    else:
        first = report["problems"][0]
        print(f"journal export does NOT verify: {first['kind']} at seq {first['seq']}: {first['message']}")
        for p in report["problems"][1:20]:
            print(f"  also: {p['kind']} at seq {p['seq']}: {p['message']}")
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
