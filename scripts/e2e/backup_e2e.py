"""Backup and restore through the real binary under signing load (scripts/test.d/25-backup.sh,
issue 26, docs/deployment.md "Back up" / "Restore"):

1. `sigil serve --dev --auto-approve --data-dir D` signs messages for a token client from four
   threads without pause; every acknowledged signature (a 200 with a signature) is recorded with the
   time its answer arrived.
2. During that load, `sigil backup B1` and `sigil backup B2` (the online SQLite backup, the account
   files, the manifest); `sigil restore B1` into D is refused while serve runs on it.
3. The load stops, serve stops (SIGTERM: exit 0).
4. `sigil restore B1` into a new directory: every file matches the manifest, the journal verifies
   (restore's own check, then `sigil journal verify`), and every signature acknowledged before the
   backup started is in the restored journal; the same for B2. A changed byte in a backup file makes
   restore refuse before anything changes. Restoring into D (data present) is refused without
   --replace and moves the old data aside with it.
5. `sigil serve` starts on the restored directory and signs again.
Python standard library only.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sigil_process import SigilProcess  # noqa: E402

ALICE = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"


def check(cond, what):
    if not cond:
        raise AssertionError(what)
    print("ok -", what, flush=True)


def run(*args, expect=0):
    p = subprocess.run(list(args), capture_output=True, text=True, timeout=120)
    if p.returncode != expect:
        raise AssertionError(f"{args} exited {p.returncode} (expected {expect}):\n{p.stdout}\n{p.stderr}")
    return p.stdout + p.stderr


class Load:
    """Threads signing `pub(bytes.sign)` through the API until stopped; acknowledgements with times."""

    def __init__(self, sigil, threads=4):
        self.sigil = sigil
        self.token = sigil.client_tokens["backup"]
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.acknowledged = []  # (monotonic time of the answer, signature)
        self.errors = []
        self.first = threading.Event()
        self.threads = [threading.Thread(target=self.work, args=(i,), daemon=True) for i in range(threads)]

    def call(self, session, n, message, request):
        body = json.dumps({"id": f"b{n}", "message": message, "request": request}).encode()
        req = urllib.request.Request(self.sigil.gateway + "/v1/request", data=body, headers={
            "Authorization": "Bearer " + self.token, "X-Sigil-Session": session,
            "Content-Type": "application/json"})
        return json.loads(urllib.request.urlopen(req, timeout=30).read())

    def work(self, i):
        session = f"backupsession{i:03d}"
        try:
            n = 0
            while not self.stop.is_set():
                n += 1
                reply = self.call(session, n, "pub(bytes.sign)",
                                  {"address": ALICE, "data": f"load {i} {n}", "type": "bytes"})
                if "response" not in reply:
                    raise RuntimeError(f"no signature: {json.dumps(reply)[:300]}")
                signature = reply["response"]["signature"]
                with self.lock:
                    self.acknowledged.append((time.monotonic(), signature))
                self.first.set()
        except Exception as e:  # noqa: BLE001 - reported by the main thread
            self.errors.append(f"thread {i}: {e!r}")
            self.first.set()

    def start(self):
        # One connection for the client (its grant covers every session), before the load: four
        # concurrent first requests would race the auto-approval of the connection.
        reply = self.call("backupsession999", 0, "pub(authorize.tab)", {"origin": "backup e2e"})
        check("response" in reply, "the client connects")
        for t in self.threads:
            t.start()
        self.first.wait(60)

    def count(self):
        with self.lock:
            return len(self.acknowledged)

    def wait_for_more(self, than, timeout=60):
        deadline = time.monotonic() + timeout
        while self.count() <= than and time.monotonic() < deadline and not self.errors:
            self.stop.wait(0.01)  # an event wait, not a fixed sleep: returns as soon as the load is stopped

    def before(self, instant):
        with self.lock:
            return {s for t, s in self.acknowledged if t < instant}

    def finish(self):
        self.stop.set()
        for t in self.threads:
            t.join(60)


def journal_results(binary, data):
    listed = json.loads(run(binary, "journal", "list", "--data-dir", data, "--json", "--limit", "1000000"))
    return {e["result"] for e in listed if e["result"] != "0x"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sigil", required=True)
    args = ap.parse_args()
    binary = args.sigil
    work = tempfile.mkdtemp(prefix="sigil-backup-e2e.")
    try:
        data = os.path.join(work, "data")
        backups = [os.path.join(work, "b1"), os.path.join(work, "b2")]
        sigil = SigilProcess(binary, "--auto-approve", "--client", "backup", "--data-dir", data,
                             "--journal-checkpoint-interval", "1")
        started = []
        load = Load(sigil)
        try:
            load.start()
            check(not load.errors and load.count() > 0, "signing load runs: " + "; ".join(load.errors))
            for backup in backups:
                load.wait_for_more(load.count() + 20)
                started.append(time.monotonic())
                out = run(binary, "backup", backup, "--data-dir", data)
                check("Backed up" in out, f"sigil backup {os.path.basename(backup)} under load: {out.strip()}")
            out = run(binary, "restore", backups[0], "--data-dir", data, "--replace", expect=1)
            check("running" in out and "serve.lock" in out, "restore into the running instance's directory is refused")
            load.wait_for_more(load.count() + 20)
        finally:
            load.finish()
            sigil.stop()
        check(not load.errors, "no request failed during the backups: " + "; ".join(load.errors))
        check(sigil.proc.returncode == 0, "serve exits 0 on SIGTERM")
        total = load.count()
        check(total > 60, f"{total} signatures acknowledged during the test")
        check({s for _, s in load.acknowledged} <= journal_results(binary, data),
              "every acknowledged signature is in the live journal")

        for i, backup in enumerate(backups):
            with open(os.path.join(backup, "sigil-backup.json")) as f:
                manifest = json.load(f)
            paths = {entry["path"] for entry in manifest["files"]}
            check("state.sqlite" in paths and manifest["journalEntries"] > 0,
                  f"b{i + 1} manifest: {sorted(paths)}, journal {manifest['journalEntries']} entries")
            restored = os.path.join(work, f"restored{i + 1}")
            out = run(binary, "restore", backup, "--data-dir", restored)
            check("The journal verifies" in out, f"restore b{i + 1}: {out.strip().splitlines()[-1]}")
            out = run(binary, "journal", "verify", "--data-dir", restored)
            check("The journal verifies" in out, f"sigil journal verify on restored b{i + 1}")
            wanted = load.before(started[i])
            present = journal_results(binary, restored)
            missing = wanted - present
            check(not missing and wanted,
                  f"all {len(wanted)} signatures acknowledged before backup b{i + 1} began are in it "
                  f"({len(present)} results; {len(missing)} missing)")

        # A changed byte in a backup file: refused before anything changes.
        tampered = os.path.join(work, "tampered")
        shutil.copytree(backups[0], tampered)
        with open(os.path.join(tampered, "state.sqlite"), "r+b") as f:
            f.seek(200)
            byte = f.read(1)
            f.seek(200)
            f.write(bytes([byte[0] ^ 1]))
        target = os.path.join(work, "untouched")
        out = run(binary, "restore", tampered, "--data-dir", target, expect=1)
        check("differs from the manifest" in out and not os.path.exists(os.path.join(target, "state.sqlite")),
              "a tampered backup is refused and nothing is restored")

        # Into the original directory, stopped: refused without --replace, moved aside with it.
        out = run(binary, "restore", backups[1], "--data-dir", data, expect=1)
        check("--replace" in out, "restore over existing data needs --replace")
        out = run(binary, "restore", backups[1], "--data-dir", data, "--replace")
        check("before-restore-" in out and "The journal verifies" in out, "--replace keeps the old data aside")

        # The restored directory serves and signs.
        sigil = SigilProcess(binary, "--auto-approve", "--client", "backup", "--data-dir",
                             os.path.join(work, "restored1"))
        try:
            again = Load(sigil, threads=1)
            again.start()
            again.wait_for_more(0)
            again.finish()
            check(again.count() > 0 and not again.errors, "sigil serve runs on the restored directory and signs")
        finally:
            sigil.stop()
        out = run(binary, "journal", "verify", "--data-dir", os.path.join(work, "restored1"))
        check("The journal verifies" in out, "the restored journal still verifies after new entries")
        print("backup e2e: all checks passed")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print(f"backup e2e: FAILED: {e}", file=sys.stderr)
        sys.exit(1)
