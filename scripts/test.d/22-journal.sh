#!/usr/bin/env bash
# The signing journal through the real `sigil` binary (issue 14, docs/journal.md): serve signs for a
# client with --journal-mirror; `sigil journal list|show|verify|export` read it; the independent
# Python verifier (scripts/journal_verify.py, standard library only, written from the spec) accepts
# the export and fails, naming the sequence number, on tampered copies (a changed byte of a field, a
# deleted entry, swapped entries, a cut tail, a forged checkpoint); `sigil journal verify` names a
# changed database entry and catches a rolled-back database against the mirror.
# tier: fast
# typical: 5 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need sigil
timeout 300 python3 -u scripts/e2e/journal_e2e.py --sigil "$bin/sigil"
