#!/usr/bin/env bash
# Fuzzes the HTTP/1.1 request parser for a bounded time (default 60 s; SIGIL_FUZZ_SECONDS overrides,
# SIGIL_FUZZ_SEED replays a run). A seeded random mutator checks split-independence, framing rules
# and a canonical round trip on every input (Tests/GatewayHTTPTests/HTTPRequestParserFuzzTests.swift).
# A failing input is printed as hex; add it to that file's `regressions` list.
# tier: full
# typical: 70 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
seconds=${SIGIL_FUZZ_SECONDS:-60}
seed=${SIGIL_FUZZ_SEED:-$(( $(date +%s) % 1000000 ))}
echo "parser fuzz: ${seconds}s, seed ${seed}" >&2
SIGIL_FUZZ_SECONDS=$seconds SIGIL_FUZZ_SEED=$seed \
    timeout $((seconds + 300)) swift test --skip-build --filter 'HTTPRequestParserFuzzTests/mutatedInputsKeepEveryProperty'
