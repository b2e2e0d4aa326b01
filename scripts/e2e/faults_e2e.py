"""Faults survived (issue 15, scripts/test.d/24-faults.sh), through the real `sigil` binary:

1. Disk full. The data directory lives on a small tmpfs of the test's own (this script runs in a
   private mount namespace: `unshare -m`, or `unshare -rm` without root). Sigil signs, then the
   filesystem is filled to the last byte and signing continues until the journal cannot store an
   entry: from then on every signature is withheld with a clear error (never a signature without its
   entry), the process stays up and healthy, and its log says the disk is full. After space is
   freed, signing works again; after a clean stop, the journal verifies and every signature a client
   received is in it.
2. A damaged state database (garbage header, truncated file, random bytes over its pages): `sigil
   serve` refuses to start with exit status 1 and an error that names the problem and the recovery
   (never a crash, never a new empty database over the old one); `sigil state check` reports it;
   `sigil state reset` keeps the file aside; the next start works with the accounts intact.
Python standard library only.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sigil_process import SigilProcess  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
with open(os.path.join(ROOT, "scripts", "bench", "sign-payload.json")) as f:
    PAYLOAD = json.load(f)


def check(cond, what):
    if not cond:
        raise AssertionError(what)
    print("ok -", what)


def run(*args):
    return subprocess.run(list(args), capture_output=True, text=True, timeout=120)


class Client:
    def __init__(self, sigil):
        self.sigil = sigil
        self.token = sigil.client_tokens["faults"]
        self.n = 0

    def call(self, message, request):
        self.n += 1
        body = json.dumps({"id": f"f{self.n}", "message": message, "request": request}).encode()
        req = urllib.request.Request(self.sigil.gateway + "/v1/request", data=body, headers={
            "Authorization": "Bearer " + self.token, "X-Sigil-Session": "faultsession01",
            "Content-Type": "application/json"})
        try:
            return json.loads(urllib.request.urlopen(req, timeout=30).read())
        except urllib.error.HTTPError as e:
            return {"error": f"HTTP {e.code}: {e.read()[:200]!r}"}

    def sign(self, nonce):
        return self.call("pub(extrinsic.sign)", dict(PAYLOAD, nonce="0x%08x" % nonce))


def healthy(sigil):
    try:
        return urllib.request.urlopen(sigil.ui + "/healthz", timeout=10).status == 200
    except urllib.error.HTTPError as e:
        print("  /healthz:", e.code, e.read()[:300])
        return False
    except OSError as e:
        print("  /healthz:", e)
        return False


def fill(path):
    """Writes a file until the filesystem has no byte left; returns its size."""
    size = 0
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        for n in (65536, 4096, 512, 1):
            while True:
                try:
                    written = os.write(fd, b"\0" * n)
                except OSError:
                    break
                size += written
                if written < n:
                    break
    finally:
        os.close(fd)
    return size


def disk_full(binary, work):
    fs = os.path.join(work, "fs")
    os.makedirs(fs)
    mounted = run("mount", "-t", "tmpfs", "-o", "size=8m,mode=0700", "tmpfs", fs)
    check(mounted.returncode == 0, f"a private 8 MiB tmpfs for the data directory ({mounted.stderr.strip()})")
    data = os.path.join(fs, "data")
    sigil = SigilProcess(binary, "--auto-approve", "--client", "faults", "--data-dir", data)
    received = []
    try:
        client = Client(sigil)
        check("response" in client.call("pub(authorize.tab)", {"origin": "faults e2e"}), "the client connects")
        nonce = 0
        for _ in range(5):
            reply = client.sign(nonce)
            nonce += 1
            received.append(reply["response"]["signature"])
        check(len(received) == 5, "signatures before the disk is full")
        filler = os.path.join(fs, "filler")
        size = fill(filler)
        check(size > 0, f"the filesystem is filled ({size} bytes of filler)")
        first_error = None
        for _ in range(3000):
            reply = client.sign(nonce)
            nonce += 1
            if "error" in reply:
                first_error = reply["error"]
                break
            received.append(reply["response"]["signature"])
        check(first_error is not None, f"signing stops once the journal cannot grow ({len(received)} signed): {first_error}")
        withheld = 0
        for _ in range(20):
            reply = client.sign(nonce)
            nonce += 1
            if "error" in reply:
                withheld += 1
            else:
                received.append(reply["response"]["signature"])
        check(withheld >= 15, f"with the disk full, signatures are withheld ({withheld} of 20)")
        check(sigil.proc.poll() is None, "the process stays up")
        check(healthy(sigil), "/healthz answers")
        log = "".join(sigil.stderr_lines)
        check("disk" in log and "full" in log, "the log says the disk is full")
        os.remove(filler)
        reply = client.sign(nonce)
        check("response" in reply, "after space is freed, signing works again")
        received.append(reply["response"]["signature"])
    finally:
        sigil.stop()
    check(sigil.proc.returncode == 0, f"a clean stop (exit {sigil.proc.returncode})")
    verify = run(binary, "journal", "verify", "--data-dir", data)
    check(verify.returncode == 0, "the journal verifies after the disk was full: " + verify.stdout.strip()[-200:])
    export = os.path.join(work, "export.jsonl")
    exported = run(binary, "journal", "export", "--data-dir", data, "--output", export)
    check(exported.returncode == 0, "the journal exports: " + exported.stderr.strip()[-200:])
    with open(export) as f:
        text = f.read()
    missing = [s for s in received if s.removeprefix("0x") not in text]
    check(not missing, f"every one of the {len(received)} signatures a client received is in the journal")
    copy = os.path.join(work, "data-copy")
    shutil.copytree(data, copy)
    run("umount", fs)
    return copy


def damaged_database(binary, data):
    database = os.path.join(data, "state.sqlite")
    password = os.path.join(data, "..", "password")
    with open(os.open(password, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
        f.write("correct horse battery staple\n")
    added = run(binary, "accounts", "add", "//FaultsTest", "--name", "Faults test", "--data-dir", data, "--password-file", password)
    check(added.returncode == 0, "an account is stored in the data directory: " + added.stderr.strip()[-200:])
    pristine = os.path.join(data, "..", "pristine.sqlite")
    shutil.copyfile(database, pristine)
    accounts_before = run(binary, "accounts", "list", "--data-dir", data, "--json")

    def damage(kind):
        shutil.copyfile(pristine, database)
        for suffix in ("-wal", "-shm"):
            if os.path.exists(database + suffix):
                os.remove(database + suffix)
        with open(database, "r+b") as f:
            if kind == "garbage header":
                f.write(b"this is not SQLite at all")
            elif kind == "truncated":
                f.truncate(os.path.getsize(database) // 3)
            else:
                import random
                rng = random.Random(7)
                size = os.path.getsize(database)
                for _ in range(40):
                    f.seek(rng.randrange(4096, size))
                    f.write(bytes(rng.randrange(256) for _ in range(64)))

    for kind in ("garbage header", "truncated", "random pages"):
        damage(kind)
        size = os.path.getsize(database)
        p = subprocess.run([binary, "serve", "--dev", "--port", "0", "--ui-port", "0", "--data-dir", data],
                           capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
        check(p.returncode == 1, f"{kind}: serve refuses to start with exit 1, no crash (exit {p.returncode})")
        check("databaseDamaged" in p.stderr and "sigil state reset" in p.stderr,
              f"{kind}: the error names the damage and the recovery")
        check(os.path.getsize(database) == size, f"{kind}: the damaged file is left as it was")
        checked = run(binary, "state", "check", "--data-dir", data)
        check(checked.returncode == 1, f"{kind}: `sigil state check` reports the damage: {checked.stdout.strip()[:120]}")
    reset = run(binary, "state", "reset", "--data-dir", data)
    check(reset.returncode == 0 and "state.damaged-" in reset.stdout, "`sigil state reset` keeps the file aside")
    check(any(n.startswith("state.damaged-") for n in os.listdir(data)), "the damaged copy is kept")
    sigil = SigilProcess(binary, "--auto-approve", "--client", "faults", "--data-dir", data)
    try:
        client = Client(sigil)
        check("response" in client.call("pub(authorize.tab)", {"origin": "after reset"}), "after the reset, serve starts")
        check("response" in client.sign(1), "and signs")
    finally:
        sigil.stop()
    accounts_after = run(binary, "accounts", "list", "--data-dir", data, "--json")
    check("Faults test" in accounts_before.stdout and accounts_after.stdout == accounts_before.stdout,
          "the stored account is intact")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sigil", required=True)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="sigil-faults.")
    try:
        copy = disk_full(args.sigil, work)
        damaged_database(args.sigil, copy)
    finally:
        subprocess.run(["umount", os.path.join(work, "fs")], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)
    print("faults e2e: all checks passed")


if __name__ == "__main__":
    main()
