#!/usr/bin/env python3
"""Checks `sigil payload` and `sigil call decode` against the payload and call vectors.

usage: payload_cli_check.py SIGIL payloads.json calls.json METADATA_DIR...
"""
import json
import os
import subprocess
import sys


def run(args, stdin=None):
    return subprocess.run(args, input=stdin, capture_output=True, timeout=30)


def camel(s):
    parts = s.split("_")
    return parts[0][:1].lower() + parts[0][1:] + "".join(p[:1].upper() + p[1:] for p in parts[1:])


def main():
    sigil, payloads, calls, *mddirs = sys.argv[1:]
    failures = 0
    checked = 0
    data = json.load(open(payloads))
    for v in data["vectors"]:
        r = run([sigil, "payload", "-", "--json"], json.dumps(v["payload"]).encode())
        if r.returncode != 0:
            print(f"{v['id']}: exit {r.returncode}: {r.stderr.decode()[:200]}")
            failures += 1
            continue
        out = json.loads(r.stdout)
        want = (v["signing_payload"], v["hashed"], v["signed_bytes"])
        got = (out["payload"], out["hashed"], out["signed"])
        if got != want:
            print(f"{v['id']}: got {got}, want {want}")
            failures += 1
        checked += 1
    for v in data["invalid"]:
        r = run([sigil, "payload", "-"], json.dumps(v["payload"]).encode())
        if r.returncode == 0:
            print(f"{v['id']}: accepted, want refusal ({v['reason']})")
            failures += 1
        checked += 1
    for v in json.load(open(calls))["vectors"]:
        name = os.path.basename(v["metadata"])
        md = next((os.path.join(d, name) for d in mddirs if os.path.isfile(os.path.join(d, name))),
                  os.path.join(mddirs[0], name))
        r = run([sigil, "call", "decode", "--metadata", md, v["call"], "--json"])
        if r.returncode != 0:
            print(f"{v['id']}: exit {r.returncode}: {r.stderr.decode()[:200]}")
            failures += 1
            continue
        out = json.loads(r.stdout)
        if camel(out["pallet"]) != v["pallet"] or camel(out["call"]) != v["call_name"]:
            print(f"{v['id']}: got {out['pallet']}.{out['call']}, want {v['pallet']}.{v['call_name']}")
            failures += 1
        if set(camel(k) for k in out["args"]) != set(v["args_json"]):
            print(f"{v['id']}: args {sorted(out['args'])} vs {sorted(v['args_json'])}")
            failures += 1
        checked += 1
    print(f"payload/call CLI: {checked} vectors checked, {failures} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
