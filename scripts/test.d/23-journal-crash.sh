#!/usr/bin/env bash
# Crash safety of the signing journal (issue 14, docs/journal.md §7), with the internal
# KeystoreStress tool: a writer signs from 8 tasks, appends each signature's journal entry through
# the group-committing JournalWriter and prints it only once committed (as the gateway replies only
# then), checkpointing every 15 ms. It is SIGKILLed at seeded random instants, hundreds of times;
# after every kill the chain must verify, the previous round's head must be unchanged, and every
# signature printed (what a client received) must be in the journal at its sequence number.
# Every 10 rounds the writers start a new journal, so that verifying after each kill stays cheap in a
# debug build. Bounded: about a minute on 2 cores. JOURNAL_CRASH_ROUNDS / _SECONDS / _SEED override; the seed is
# printed so that a failure can be replayed. It runs twice: with every commit synced
# (`--journal-sync commit`, the default) and with periodic syncs (`--sync periodic`: an acknowledged
# entry has reached the OS but maybe not the disk, which a SIGKILL must not lose either).
# tier: full
# typical: 110 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need KeystoreStress
work=$(mktemp -d "${TMPDIR:-/tmp}/sigil-journal-crash.XXXXXX")
trap 'rm -rf "$work"' EXIT
seed=${JOURNAL_CRASH_SEED:-$(date +%s)}
echo "journal-crash seed $seed" >&2
timeout 300 "$bin/KeystoreStress" journal-crash "$work/journal" --rounds "${JOURNAL_CRASH_ROUNDS:-200}" \
    --seconds "${JOURNAL_CRASH_SECONDS:-150}" --seed "$seed" --sync commit
timeout 300 "$bin/KeystoreStress" journal-crash "$work/journal-periodic" --rounds "${JOURNAL_CRASH_ROUNDS:-100}" \
    --seconds "${JOURNAL_CRASH_SECONDS:-120}" --seed "$((seed + 1))" --sync periodic
