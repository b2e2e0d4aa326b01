#!/usr/bin/env python3
"""Interop check of `sigil metadata hash` against the reference implementation: the
merkleized-metadata crate 0.5.1 as compiled into PyPI's bittensor-core (`metadata_digest`).

Every metadata v15 file copied into Tests/ (the four RFC-0078 fixtures and ScaleCodecTests'
newer Polkadot, Kusama and Asset Hub runtimes) is hashed with random extra information (spec
name with non-ASCII text, spec version, prefix 0…65535, decimals 0…255, symbol) by both; the hashes
must be equal. Metadata v14 and v16 must be refused by both.

Usage: metadata_hash_interop.py PATH-TO-SIGIL FILE... [--rounds N] [--seed S]
"""
import argparse
import json
import random
import subprocess
import sys

import bittensor_core


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("sigil")
    parser.add_argument("files", nargs="+")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
    rng = random.Random(seed)
    checks = failures = 0
    for path in args.files:
        raw = open(path, "rb").read()
        version = raw[4]
        for _ in range(args.rounds if version == 15 else 1):
            name = rng.choice(["polkadot", "kusama", "nice", "statemint", "ünïcødé-✓", ""]) + str(rng.randrange(100))
            spec = rng.randrange(1 << 32)
            prefix = rng.randrange(1 << 16)
            decimals = rng.randrange(256)
            symbol = rng.choice(["DOT", "KSM", "lol", "UNIT", "₿"])
            r = subprocess.run([args.sigil, "metadata", "hash", path, "--json", "--spec-name", name,
                                "--spec-version", str(spec), "--base58-prefix", str(prefix),
                                "--decimals", str(decimals), "--token-symbol", symbol],
                               capture_output=True, timeout=120)
            try:
                theirs = "0x" + bytes(bittensor_core.metadata_digest(raw, spec, name, prefix, decimals, symbol)).hex()
            except Exception as e:  # the crate refuses what it cannot hash
                theirs = None
                reason = str(e)
            checks += 1
            if theirs is None:
                if r.returncode == 0:
                    failures += 1
                    print(f"FAIL: {path}: the crate refuses ({reason}), sigil accepts", file=sys.stderr)
                continue
            if r.returncode != 0:
                failures += 1
                print(f"FAIL: {path}: sigil exit {r.returncode}: {r.stderr.decode()[:200]}", file=sys.stderr)
                continue
            ours = json.loads(r.stdout)["metadataHash"]
            if ours != theirs:
                failures += 1
                print(f"FAIL: {path} {name!r} {spec} {prefix} {decimals} {symbol!r}: sigil {ours}, crate {theirs}",
                      file=sys.stderr)
    print(f"metadata hash interop: {checks} checks against merkleized-metadata (bittensor-core), "
          f"{failures} failure(s) (seed {seed})")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
