#!/usr/bin/env bash
# Command line: `sigil metadata hash` reproduces every RFC-0078 vector (all flags; dedot's with the
# spec name, version and prefix taken from the metadata; hex on stdin; a MetadataDef JSON) and
# refuses metadata v14/v16, missing or out-of-range options and non-metadata input. Uses only
# python3's standard library and the files copied into Tests/. Bounded: under a minute.
# tier: fast
# typical: 9 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need sigil
timeout 300 python3 "$root/scripts/cli/metadata_hash_cli_check.py" "$bin/sigil" \
    "$root/Tests/MetadataHashTests/Resources" "$root/Tests/ScaleCodecTests/Resources"
