#!/usr/bin/env bash
# Command line: `sigil payload` reproduces every payload vector byte for byte and refuses every
# invalid one (non-zero exit); `sigil call decode --json` names the pallet and call of every call
# vector. Uses only python3's standard library and the vectors copied into Tests/. Bounded: under a
# minute.
# tier: fast
# typical: 5 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need sigil
timeout 300 python3 "$root/scripts/cli/payload_cli_check.py" "$bin/sigil" \
    "$root/Tests/SigilTesting/Resources/payloads.json" \
    "$root/Tests/ScaleCodecTests/Resources/calls.json" \
    "$root/Tests/ScaleCodecTests/Resources" "$root/Tests/SigilTesting/Resources"
