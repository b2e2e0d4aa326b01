#!/usr/bin/env bash
# Fuzzing, bounded. First the SCALE/metadata/call/payload mutation tests with 10x their default number
# of mutated inputs (SIGIL_FUZZ_ROUNDS). Every input must decode exactly or be refused with a typed
# error: no crash, no hang. About a minute on 2 cores (debug build); the timeout bounds it.
# tier: full
# typical: 400 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
[ -n "${SIGILTEST_BIN_DIR:-}" ] || swift build --build-tests >&2
SIGIL_FUZZ_ROUNDS="${SIGIL_FUZZ_ROUNDS:-10}" timeout 600 swift test --skip-build \
    --filter 'MutationFuzzTests|PayloadMutationTests'

# Coverage-guided: every libFuzzer target (Fuzz/README.md) for a bounded time each (SIGIL_LIBFUZZER_SECONDS,
# default 20), starting from the seeds and what earlier runs on this machine found. A crash fails the
# step and leaves the input in .fuzz/crashes/. The build (release, fuzzer + address sanitizers) is
# incremental after the first run.
timeout 2400 scripts/fuzz all "${SIGIL_LIBFUZZER_SECONDS:-20}"
