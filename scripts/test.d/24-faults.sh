#!/usr/bin/env bash
# Faults survived (issue 15, scripts/e2e/faults_e2e.py): the data directory's disk full (a small tmpfs of
# the test's own, in a private mount namespace) and a damaged state database, through the real binary.
# Runs as root in `unshare -m` (CI), or in a user namespace (`unshare -rm`) otherwise.
# tier: full
# typical: 60 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need sigil
if [ "$(id -u)" = 0 ]; then ns=(unshare -m --propagation private); else ns=(unshare -rm); fi
timeout 600 "${ns[@]}" python3 -u scripts/e2e/faults_e2e.py --sigil "$bin/sigil"
