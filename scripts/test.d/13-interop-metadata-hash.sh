#!/usr/bin/env bash
# Interop of `sigil metadata hash` with the reference implementation (the merkleized-metadata
# crate 0.5.1, compiled into PyPI's bittensor-core): every metadata v15 file in Tests/ with random
# extra information, both hashes equal; v14 and v16 refused by both. Bounded: under a minute after
# the build; hard limit 5 minutes. METADATA_HASH_INTEROP_ROUNDS overrides rounds per file (default 3).
# tier: fast
# typical: 5 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need sigil
timeout 300 "$py" "$root/scripts/interop/metadata_hash_interop.py" "$bin/sigil" \
    Tests/MetadataHashTests/Resources/*.scale Tests/ScaleCodecTests/Resources/*.scale Tests/SigilTesting/Resources/*.scale \
    --rounds "${METADATA_HASH_INTEROP_ROUNDS:-3}"
