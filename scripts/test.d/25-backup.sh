#!/usr/bin/env bash
# Backup and restore: `sigil backup` copies a consistent data directory while `sigil serve` signs under load;
#   `sigil restore` refuses a running instance's directory, a tampered backup and existing data
#   without --replace; the restored journal verifies and holds every signature acknowledged before
#   the backup began; serve runs on the restored directory (scripts/e2e/backup_e2e.py, issue 26).
# tier: full
# typical: 10 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need sigil
timeout 300 python3 -u scripts/e2e/backup_e2e.py --sigil "$bin/sigil"
