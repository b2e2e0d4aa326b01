#!/usr/bin/env bash
# Crash safety and concurrency of the keystore and state database (issue 6), with the internal
# KeystoreStress tool (Sources/KeystoreStress, not shipped):
#  1. crash: writers that add/rename accounts, authorize/revoke sites, store metadata (20–600 KB blobs)
#     and settings are SIGKILLed at random instants, hundreds of times; after each kill the directory
#     is reopened and every committed item must be intact, every in-flight one absent or complete,
#     nothing unannounced present, every account file readable, SQLite's integrity check clean.
#  2. concurrent: two writers on one data directory at once, then the same checks.
#  3. lock: a process holding serve.lock makes a second one fail clearly; after SIGKILL of the holder
#     the lock is free again (the kernel drops flock locks of dead processes).
# Bounded: about two minutes on 2 cores. KEYSTORE_CRASH_ROUNDS / _SECONDS override the first part.
# tier: full
# typical: 60 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need KeystoreStress
stress="$bin/KeystoreStress"
work=$(mktemp -d "${TMPDIR:-/tmp}/sigil-keystore-crash.XXXXXX")
holder=""
second=""
cleanup() {
    # Only the lock holders this script started, by pid (run directly, not under timeout, so that
    # the pid is the holder's own).
    for pid in $holder $second; do kill -9 "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

timeout 240 "$stress" crash "$work/crash" --rounds "${KEYSTORE_CRASH_ROUNDS:-250}" \
    --seconds "${KEYSTORE_CRASH_SECONDS:-100}"
timeout 120 "$stress" concurrent "$work/concurrent" --writers 2 --seconds 10

# Lock: first holder prints "locked PID" once it holds serve.lock.
mkfifo "$work/fifo"
"$stress" lock "$work/lockdir" > "$work/fifo" &
holder=$!
read -r word pid < "$work/fifo"
[ "$word" = locked ] && [ "$pid" = "$holder" ] || { echo "lock holder did not start" >&2; exit 1; }
if out=$("$stress" lock "$work/lockdir" 2>&1); then
    echo "a second holder got serve.lock" >&2; exit 1
fi
case "$out" in
    *dataDirectoryInUse*"process $holder"*) ;;
    *) echo "unclear refusal: $out" >&2; exit 1 ;;
esac
kill -9 "$holder"; wait "$holder" 2>/dev/null || true; holder=""
: > "$work/second"
"$stress" lock "$work/lockdir" > "$work/second" &
second=$!
for _ in $(seq 1 200); do grep -q '^locked' "$work/second" && break; sleep 0.05; done
grep -q '^locked' "$work/second" || { echo "serve.lock not free after its holder was killed" >&2; exit 1; }
kill -9 "$second"; wait "$second" 2>/dev/null || true; second=""
echo "lock: second holder refused while the first lived; free again after SIGKILL"
