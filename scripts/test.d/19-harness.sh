#!/usr/bin/env bash
# The test harness itself (scripts/test, scripts/lib/harness.sh, scripts/e2e/sigil_process.py): a
# nested `scripts/test` runs fixture steps that start servers the ways steps do (`sigil_serve`, a
# Python `SigilProcess`, a plain background job) and then (1) are interrupted with SIGINT as Ctrl-C
# sends it, (2) fail, (3) leave an escaped process behind. In every case no process of the nested run
# may survive it, the runner's exit status must say what happened, and case 3 must be reported.
# tier: fast
# typical: 12 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need sigil
steps="$work/steps"
mkdir -p "$steps"

# A fixture step: two servers through the shell harness, one through the Python one, a background
# sleep of its own; then it announces itself and does $1 (hang, fail or escape).
fixture() {  # NAME ACTION
    cat > "$steps/$1.sh" <<EOF
#!/usr/bin/env bash
# Harness fixture: $2.
# tier: fast
# typical: 12 s
. "$root/scripts/lib/harness.sh"
sigil_serve one --dev
sigil_serve two --dev --auto-approve
spawn pyserver "\$py" -u -c 'import sys, time; sys.path.insert(0, "$root/scripts/e2e")
from sigil_process import SigilProcess
s = SigilProcess(sys.argv[1]); print("python server", s.gateway, flush=True); time.sleep(600)' "\$bin/sigil"
wait_for '^python server' "\$work/pyserver.out" 30
sleep 600 &
echo "fixture ready: \$(pgrep -c -f "\$bin/sigil serve" || true) servers"
case "$2" in
    hang) sleep 600 ;;
    fail) exit 3 ;;
    escape) (setsid sleep 600 < /dev/null > /dev/null 2>&1 &); exit 0 ;;
esac
EOF
}
fixture 01-hang hang
fixture 02-fail fail
fixture 03-escape escape

# The nested run's processes carry this word in SIGILTEST_RUN (after the enclosing run's own mark).
mark="harness-test-$$-$RANDOM"
survivors() {  # processes of the nested run still alive
    grep -lsz "^SIGILTEST_RUN=\(.* \)\?$mark\( .*\)\?\$" /proc/[0-9]*/environ 2>/dev/null \
        | sed -n 's#^/proc/\([0-9]*\)/environ$#\1#p' || true
}
nested() {  # LOG STEP: the runner on a fixture step, as a terminal runs a foreground job: its own
    # process group, SIGINT not ignored (bash ignores it in background jobs, and a script cannot trap
    # a signal ignored on entry, so the launcher restores the default before exec).
    SIGILTEST_RUN="${SIGILTEST_RUN:+$SIGILTEST_RUN }$mark" SIGILTEST_STEPS_DIR="$steps" SIGILTEST_BIN_DIR="$bin" \
        "$py" -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.setsid()
os.execv(sys.argv[1], sys.argv[1:])' "$root/scripts/test" "$2" > "$1" 2>&1 &
}

# 1. Ctrl-C while servers run: SIGINT to the runner's foreground process group.
nested "$work/hang.log" 01-hang
runner=$!
wait_for 'fixture ready' "$work/hang.log" 60 || fail "the hanging fixture never got ready"
before=$(survivors | wc -l)
# Two shell-harness servers, the Python one and its interpreter, the sleeps, the step's bash: at least 5.
((before >= 5)) || fail "only $before processes of the nested run were seen before the interrupt"
grep -q 'fixture ready: [3-9] servers' "$work/hang.log" || fail "the fixture did not have its three servers running"
kill -INT -- "-$runner"
status=0
wait "$runner" || status=$?
[ "$status" = 130 ] || { cat "$work/hang.log" >&2; fail "interrupted runner exited $status, not 130"; }
left=$(survivors)
[ -z "$left" ] || { ps -o pid,args -p "$(echo "$left" | tr '\n' ,)" >&2; fail "Ctrl-C left processes behind"; }
echo "  ok: Ctrl-C stopped $before processes of the nested run; none left"

# 2. A failing step: its servers stopped by the harness, the run fails with the step named.
nested "$work/fail.log" 02-fail
runner=$!
status=0
wait "$runner" || status=$?
[ "$status" = 1 ] || { cat "$work/fail.log" >&2; fail "a failing step: runner exited $status, not 1"; }
grep -q '02-fail .*FAILED (3)' "$work/fail.log" || { cat "$work/fail.log" >&2; fail "the summary does not name the failed step"; }
if grep -q 'left processes running' "$work/fail.log"; then cat "$work/fail.log" >&2; fail "a failing step left its servers running"; fi
[ -z "$(survivors)" ] || fail "processes survived a failing step"
echo "  ok: a failing step stopped its servers itself and was reported"

# 3. A step that lets a process escape its group: reported, killed, the step failed.
nested "$work/escape.log" 03-escape
runner=$!
status=0
wait "$runner" || status=$?
[ "$status" = 1 ] || { cat "$work/escape.log" >&2; fail "an escaping step: runner exited $status, not 1"; }
grep -q '03-escape left processes running' "$work/escape.log" || { cat "$work/escape.log" >&2; fail "the escaped process was not reported"; }
[ -z "$(survivors)" ] || fail "the escaped process survived the run"
echo "harness: ok (Ctrl-C, a failing step and an escaped process leave nothing behind)"
