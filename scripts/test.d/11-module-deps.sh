#!/usr/bin/env bash
# Every target imports only the targets of this package that Package.swift declares for it
# (scripts/check/module_deps.py): dependencies stay declared and downward, and an incremental build
# rebuilds what depends on a changed module. Needs nothing but Swift and python3; about a second.
# tier: fast
# typical: 2 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
(cd "$root" && swift package dump-package) | python3 "$root/scripts/check/module_deps.py" "$root"
