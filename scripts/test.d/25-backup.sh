#!/usr/bin/env bash
# tier: full
# proves: `sigil backup` copies a consistent data directory while `sigil serve` signs under load;
#   `sigil restore` refuses a running instance's directory, a tampered backup and existing data
#   without --replace; the restored journal verifies and holds every signature acknowledged before
#   the backup began; serve runs on the restored directory (scripts/e2e/backup_e2e.py, issue 26).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
swift build --product sigil >&2
bin=$(swift build --show-bin-path)
timeout 300 python3 -u scripts/e2e/backup_e2e.py --sigil "$bin/sigil"
