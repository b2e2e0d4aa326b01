#!/usr/bin/env python3
"""Reference timing for scripts/bench-metadata-hash: the merkleized-metadata crate (0.5.1, Rust,
release build) as compiled into PyPI's bittensor-core, `metadata_digest(metadata, spec_version,
spec_name, base58_prefix, decimals, token_symbol)`. One fresh process per run.

usage: metadata_hash_reference.py FILE SPEC_NAME SPEC_VERSION PREFIX DECIMALS SYMBOL
prints "cold <ms> warm <ms> hash <hex>": cold = the first call in this process (after the import),
warm = the best of 5 further calls. Each call decodes the metadata and hashes it (no cache).
"""
import sys
import time

import bittensor_core

path, name, version, prefix, decimals, symbol = sys.argv[1:7]
raw = open(path, "rb").read()
args = (raw, int(version), name, int(prefix), int(decimals), symbol)
t0 = time.perf_counter()
first = bittensor_core.metadata_digest(*args)
cold = (time.perf_counter() - t0) * 1000
warm = float("inf")
for _ in range(5):
    t0 = time.perf_counter()
    again = bittensor_core.metadata_digest(*args)
    warm = min(warm, (time.perf_counter() - t0) * 1000)
    assert again == first
print(f"cold {cold:.2f} warm {warm:.2f} hash 0x{bytes(first).hex()}")
