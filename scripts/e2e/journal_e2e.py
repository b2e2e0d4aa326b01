"""The signing journal through the real binary (scripts/test.d/22-journal.sh, docs/journal.md):

1. `sigil serve --dev --auto-approve --data-dir D --journal-mirror M` signs transactions and messages
   for a token client and refuses a malformed payload; SIGTERM makes its last checkpoint.
2. `sigil journal list|show|verify` read it back; `verify` passes, also against the mirror.
3. `sigil journal export` is checked by scripts/journal_verify.py (Python, from docs/journal.md, no
   Sigil code), which must fail, naming the sequence number, on each tampered copy: one changed byte
   of a field, a deleted entry, two swapped entries, a cut tail (caught by the mirror), a checkpoint
   re-signed with another key.
4. The database itself tampered (as an attacker with the file would, triggers dropped):
   `sigil journal verify` names the entry; a rolled-back copy is caught against the mirror.
Python standard library only.
"""
import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sigil_process import SigilProcess  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VERIFIER = os.path.join(ROOT, "scripts", "journal_verify.py")
ALICE = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"
# A Polkadot transfer from //Alice (the benchmark's payload).
with open(os.path.join(ROOT, "scripts", "bench", "sign-payload.json")) as f:
    PAYLOAD = json.load(f)


def check(cond, what):
    if not cond:
        raise AssertionError(what)
    print("ok -", what)


def run(*args, expect=0):
    p = subprocess.run(list(args), capture_output=True, text=True, timeout=120)
    if p.returncode != expect:
        raise AssertionError(f"{args} exited {p.returncode} (expected {expect}):\n{p.stdout}\n{p.stderr}")
    return p.stdout


def serve_and_sign(binary, data, mirror):
    sigil = SigilProcess(binary, "--auto-approve", "--client", "e2e", "--data-dir", data,
                         "--journal-mirror", mirror, "--journal-checkpoint-interval", "1")
    try:
        token = sigil.client_tokens["e2e"]
        n = [0]

        def call(message, request):
            n[0] += 1
            body = json.dumps({"id": f"j{n[0]}", "message": message, "request": request}).encode()
            req = urllib.request.Request(sigil.gateway + "/v1/request", data=body, headers={
                "Authorization": "Bearer " + token, "X-Sigil-Session": "journalsession1",
                "Content-Type": "application/json"})
            return json.loads(urllib.request.urlopen(req, timeout=30).read())

        check("response" in call("pub(authorize.tab)", {"origin": "journal e2e"}), "the client connects")
        signatures = []
        for nonce in range(6):
            payload = dict(PAYLOAD, nonce="0x%08x" % nonce)
            signatures.append(call("pub(extrinsic.sign)", payload)["response"]["signature"])
        for text in ("hello journal", "second message"):
            signatures.append(call("pub(bytes.sign)", {"address": ALICE, "data": text,
                                                       "type": "bytes"})["response"]["signature"])
        refused = call("pub(extrinsic.sign)", dict(PAYLOAD, era="0xzz"))
        check("error" in refused, "a malformed payload is refused")
        req = urllib.request.Request(sigil.ui + "/api/journal?decision=auto-approved&limit=3",
                                     headers={"X-Sigil-Token": sigil.token})
        view = json.loads(urllib.request.urlopen(req, timeout=30).read())
        check(len(view["entries"]) == 3 and all(e["decision"] == "auto-approved" for e in view["entries"]),
              "/api/journal filters by decision, newest first")
        check(view["verification"] is not None and view["verification"]["ok"], "/api/journal reports a verified journal")
    finally:
        sigil.stop()
    check(sigil.proc.returncode == 0, "serve exits 0 on SIGTERM")
    return signatures


def lines_of(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def write_lines(path, lines):
    with open(path, "w") as f:
        for line in lines:
            f.write(json.dumps(line, sort_keys=True, ensure_ascii=False) + "\n")


def expect_failure(export, what, kind, seq, *extra):
    out = run(sys.executable, VERIFIER, export, *extra, expect=1)
    check(f"does NOT verify: {kind} at seq {seq}:" in out, f"the Python verifier names {what}: {out.strip()[:160]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sigil", required=True)
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="sigil-journal-e2e.")
    try:
        data, mirror = os.path.join(work, "data"), os.path.join(work, "mirror")
        os.makedirs(mirror)
        signatures = serve_and_sign(args.sigil, data, mirror)
        mirror_file = os.path.join(mirror, "sigil-journal-checkpoints.jsonl")
        check(os.path.exists(mirror_file) and lines_of(mirror_file), "checkpoints reached the mirror")

        # 2. The command line.
        listed = json.loads(run(args.sigil, "journal", "list", "--data-dir", data, "--json", "--limit", "100"))
        check([e["decision"] for e in listed].count("auto-approved") == 9, "list: the connection and 8 signatures")
        check(listed[0]["decision"] == "refused" and listed[0]["detail"] == "notHex",
              "list: the refusal names its rule")
        check(listed[-1]["decision"] == "key" and listed[-1]["protocol"] == "sigil", "list: the key entry comes first")
        delivered = {e["result"] for e in listed if e["result"] != "0x"}
        check(set(signatures) <= {"0x" + r[2:] for r in delivered}, "every signature delivered is in the journal")
        show = run(args.sigil, "journal", "show", "3", "--data-dir", data)
        check("pub(extrinsic.sign)" in show and "DOES NOT MATCH" not in show, "show: one entry with what was shown")
        only = json.loads(run(args.sigil, "journal", "list", "--data-dir", data, "--json",
                              "--account", ALICE, "--decision", "auto-approved"))
        check(len(only) == 8, "list filters by account (any form) and decision")
        out = run(args.sigil, "journal", "verify", "--data-dir", data, "--mirror", mirror)
        check("The journal verifies" in out, "verify passes, also against the mirror")

        # 3. The independent verifier on the export.
        export = os.path.join(work, "export.jsonl")
        run(args.sigil, "journal", "export", "--data-dir", data, "-o", export)
        out = run(sys.executable, VERIFIER, export, "--checkpoints", mirror_file)
        check("journal export verifies" in out, "the Python verifier accepts the untouched export: " + out.strip())
        lines = lines_of(export)
        entries = [line for line in lines if line["type"] == "entry"]
        checkpoints = [line for line in lines if line["type"] == "checkpoint"]
        tampered = os.path.join(work, "tampered.jsonl")
        for field in ("origin", "account", "decision", "detail", "result", "subjectDigest", "time", "prev"):
            copy = json.loads(json.dumps(lines))
            target = copy[4]
            value = target[field]
            if isinstance(value, int):
                target[field] = value ^ 0x100
            elif value.startswith("0x") and len(value) > 2:
                target[field] = value[:-2] + ("00" if value[-2:] != "00" else "01")
            else:
                target[field] = value[:-1] + ("X" if not value.endswith("X") else "Y")
            write_lines(tampered, copy)
            expect_failure(tampered, f"a changed {field}", "modified", target["seq"])
        copy = json.loads(json.dumps(lines))
        copy[2]["shown"][0]["value"] += "!"
        write_lines(tampered, copy)
        expect_failure(tampered, "a changed shown row", "modified", copy[2]["seq"])
        write_lines(tampered, lines[:5] + lines[6:])
        expect_failure(tampered, "a deleted entry", "missing", entries[5]["seq"])
        write_lines(tampered, lines[:3] + [lines[4], lines[3]] + lines[5:])
        expect_failure(tampered, "two swapped entries", "reordered", entries[3]["seq"])
        cut = len(entries) - 3
        write_lines(tampered, entries[:cut])
        expect_failure(tampered, "a cut tail against the mirror", "truncated", entries[cut]["seq"],
                       "--checkpoints", mirror_file)
        forged = json.loads(json.dumps(checkpoints[-1]))
        forged["key"] = "0x" + "11" * 32
        write_lines(tampered, entries + checkpoints[:-1] + [forged])
        expect_failure(tampered, "a checkpoint with another key", "bad-checkpoint", forged["seq"])

        # 4. The database tampered, and rolled back.
        backup = os.path.join(work, "backup.sqlite")
        db = sqlite3.connect(os.path.join(data, "state.sqlite"))
        db.execute("VACUUM INTO ?", (backup,))
        db.execute("DROP TRIGGER journal_entry_append_only_update")
        db.execute("UPDATE journal_entry SET origin = 'https://elsewhere.example' WHERE seq = 6")
        db.commit()
        db.close()
        out = run(args.sigil, "journal", "verify", "--data-dir", data, expect=1)
        check("First problem: modified at seq 6:" in out, "sigil journal verify names a changed entry in the database")
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(os.path.join(data, "state.sqlite" + suffix)):
                os.remove(os.path.join(data, "state.sqlite" + suffix))
        db = sqlite3.connect(backup)
        db.execute("DROP TRIGGER journal_entry_append_only_delete")
        db.execute("DROP TRIGGER journal_checkpoint_append_only_delete")
        last = db.execute("SELECT max(seq) FROM journal_entry").fetchone()[0]
        db.execute("DELETE FROM journal_entry WHERE seq > ?", (last - 4,))
        db.execute("DELETE FROM journal_checkpoint WHERE seq > ?", (last - 4,))
        db.commit()
        db.close()
        shutil.copy(backup, os.path.join(data, "state.sqlite"))
        run(args.sigil, "journal", "verify", "--data-dir", data)  # consistent in itself
        out = run(args.sigil, "journal", "verify", "--data-dir", data, "--mirror", mirror, expect=1)
        check(f"First problem: truncated at seq {last - 3}:" in out,
              "an older copy of the database is caught against the mirror")
        print("journal e2e: all checks passed")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print("FAILED:", e, file=sys.stderr)
        sys.exit(1)
