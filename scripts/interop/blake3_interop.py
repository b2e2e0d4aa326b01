#!/usr/bin/env python3
"""Interop check of Sigil's BLAKE3 (SigningKeys.Blake3) against the PyPI `blake3` package (the
Rust blake3 crate's bindings) on random inputs.

Random lengths cover every structural case: empty, inside one block, block and chunk boundaries
(64, 1024 and their neighbours), several chunks (the chaining-value stack merging subtrees), and
long extended outputs. The inputs go to `MetadataHashBench blake3 --length L` as hex lines; each
output line must equal blake3(input).digest(L).

Usage: blake3_interop.py PATH-TO-MetadataHashBench [--rounds N] [--seed S]
"""
import argparse
import random
import subprocess
import sys

import blake3


def lengths(rng, rounds):
    edges = [0, 1, 63, 64, 65, 127, 128, 1023, 1024, 1025, 2047, 2048, 2049, 3072, 4095, 4096, 4097,
             8192, 8193, 16384, 65536, 65537]
    out = list(edges)
    while len(out) < rounds:
        kind = rng.random()
        if kind < 0.5:
            out.append(rng.randrange(0, 300))
        elif kind < 0.9:
            out.append(rng.randrange(300, 20000))
        else:
            out.append(rng.randrange(20000, 200000))
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bench")
    parser.add_argument("--rounds", type=int, default=400)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
    rng = random.Random(seed)
    checks = 0
    for out_len in (32, 1, 64, 65, 200, 1031):
        inputs = [rng.randbytes(n) for n in lengths(rng, args.rounds if out_len == 32 else args.rounds // 8)]
        text = "".join(x.hex() + "\n" for x in inputs)
        result = subprocess.run([args.bench, "blake3", "--length", str(out_len)], input=text.encode(),
                                capture_output=True, check=True, timeout=120)
        lines = result.stdout.decode().splitlines()
        if len(lines) != len(inputs):
            print(f"FAIL: {len(inputs)} inputs, {len(lines)} outputs (seed {seed})", file=sys.stderr)
            sys.exit(1)
        for data, line in zip(inputs, lines):
            expected = blake3.blake3(data).digest(length=out_len).hex()
            if line != expected:
                print(f"FAIL: {len(data)}-byte input, {out_len}-byte output: sigil {line[:64]}…, "
                      f"blake3 {expected[:64]}… (seed {seed})", file=sys.stderr)
                sys.exit(1)
            checks += 1
    print(f"blake3 interop: {checks} random inputs agree with the blake3 package {blake3.__version__} "
          f"(seed {seed})")


if __name__ == "__main__":
    main()
