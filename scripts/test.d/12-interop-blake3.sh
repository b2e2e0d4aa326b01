#!/usr/bin/env bash
# Interop of SigningKeys' BLAKE3 with the PyPI `blake3` package (the Rust crate's bindings): random
# inputs of every structural size (blocks, chunks, multi-chunk trees) and extended outputs, hashed
# by `MetadataHashBench blake3` and compared. Bounded: seconds after the build; hard limit 5 minutes.
# BLAKE3_INTEROP_ROUNDS overrides the number of inputs (default 400).
# tier: fast
# typical: 3 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need MetadataHashBench
timeout 300 "$py" "$root/scripts/interop/blake3_interop.py" "$bin/MetadataHashBench" \
    --rounds "${BLAKE3_INTEROP_ROUNDS:-400}"
