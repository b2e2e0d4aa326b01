#!/usr/bin/env bash
# The EMFILE back-off test (HTTPServerTests.backsOffWhenOutOfDescriptorsAndRecovers) fills the
# process's descriptor table and lowers RLIMIT_NOFILE, which would break any suite running beside
# it; the main `swift test` run leaves it out, and this step runs it alone in its own process.
# Fails unless exactly that one test ran and passed (a skip or a filter typo cannot pass).
# tier: full
# typical: 10 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
SIGIL_TEST_DESCRIPTOR_EXHAUSTION=1 timeout 300 swift test --skip-build \
    --filter 'HTTPServerTests/backsOffWhenOutOfDescriptorsAndRecovers' > "$out" 2>&1 || { cat "$out" >&2; exit 1; }
if ! grep -q "Test backsOffWhenOutOfDescriptorsAndRecovers() passed" "$out" \
    || ! grep -q "Test run with 1 test .*passed" "$out" || grep -q "skipped" "$out"; then
    cat "$out" >&2
    echo "31-descriptor-exhaustion: the EMFILE back-off test did not run and pass alone" >&2
    exit 1
fi
echo "descriptor exhaustion: ok (EMFILE back-off test ran alone and passed)"
