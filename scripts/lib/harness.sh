# shellcheck shell=bash
# The one shell harness every scripts/test.d step sources (docs/testing.md "The harness"):
#
#   . "$(dirname "$0")/../lib/harness.sh"
#
# It sets `root` (and cds there), `bin` (the debug build's products: built once by scripts/test,
# which exports SIGILTEST_BIN_DIR; built here when a step runs alone), `py` (the test venv's Python) and
# `work` (a temporary directory of this step), and it stops everything the step started, on success,
# on failure and on SIGINT/SIGTERM:
#
#   spawn NAME CMD…             start CMD in the background (stdout → $work/NAME.out, stderr → .err)
#   sigil_ready NAME [FLAGS…]   waits for a `sigil serve` started with `spawn NAME …` (own flags,
#                               environment or config file) and sets the same NAME_* variables
#   sigil_serve NAME [FLAGS…]   `sigil serve` on free ports with its own data directory
#                               ($work/NAME-data unless FLAGS name one); waits until it printed its
#                               URLs and sets NAME_gateway (http://127.0.0.1:PORT), NAME_bridge,
#                               NAME_ui, NAME_token, NAME_pid, NAME_out, NAME_err
#   client_token NAME CLIENT    the bearer token it printed for `--client CLIENT`
#   sigil_stop NAME             SIGTERM, then fails unless it exits 0 within 10 s
#   wait_for PATTERN FILE [S]   waits (at most S seconds, default 10) until FILE has a line matching PATTERN
#   need PRODUCT…               makes sure these executables are built (no-op under scripts/test)
#   need_browser                makes sure Debian's chromium is installed (scripts/setup --browser)
#   fail MESSAGE                prints "STEP: MESSAGE" and exits 1
#   by_tier FAST FULL           prints FAST in the fast tier, FULL otherwise (the full tier, a named
#                               step, a step run alone): a step's scale, so the fast tier stays fast
#                               while the full tier keeps every case
#
# Every process a step starts stays in the step's own process group (scripts/test runs each step as
# a group leader and kills the group on Ctrl-C); the EXIT trap here kills what is left of it.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
step_name=$(basename "$0" .sh)
py="$root/.venv-test/bin/python"
work=$(mktemp -d "${TMPDIR:-/tmp}/sigil-$step_name.XXXXXX")
harness_pids=()

harness_cleanup() {
    local status=$?
    local p
    # What `spawn` started, and any other background job of the step.
    local job
    while read -r job; do harness_pids+=("$job"); done < <(jobs -p)
    # Each once: `spawn`ed processes are jobs too, and a second SIGTERM could cut short a process's
    # own cleanup.
    local -A seen=()
    local unique=()
    for p in "${harness_pids[@]}"; do [ -n "${seen[$p]:-}" ] || { seen[$p]=1; unique+=("$p"); }; done
    harness_pids=("${unique[@]}")
    for p in "${harness_pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
    # One deadline for all of them, longer than SigilProcess.stop's 10 s: a Python process stopping
    # its own servers is not killed while it waits for them (that would orphan them, a leftover).
    local deadline=$((SECONDS + 15)) alive
    while ((SECONDS < deadline)); do
        alive=0
        for p in "${harness_pids[@]}"; do kill -0 "$p" 2>/dev/null && { alive=1; break; }; done
        ((alive)) || break
        sleep 0.05
    done
    for p in "${harness_pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
    rm -rf "$work"
    return "$status"
}
trap harness_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() { echo "$step_name: $*" >&2; exit 1; }

if [ -n "${SIGILTEST_BIN_DIR:-}" ]; then
    bin=$SIGILTEST_BIN_DIR
else
    bin=$(swift build --show-bin-path)
fi

need() {
    local product
    for product in "$@"; do
        [ -x "$bin/$product" ] || swift build --product "$product" >&2 || fail "could not build $product"
    done
}

# Standalone runs (`bash scripts/test.d/NN-….sh`) prepare the venv themselves; scripts/test already did.
[ -x "$py" ] || "$root/scripts/setup" --python >&2

by_tier() { if [ "${SIGILTEST_TIER:-full}" = fast ]; then echo "$1"; else echo "$2"; fi; }

need_browser() {  # Debian's chromium and certutil (scripts/setup --browser), for the browser steps
    if ! command -v chromium > /dev/null || ! command -v certutil > /dev/null; then
        "$root/scripts/setup" --browser >&2
    fi
}

wait_for() {  # PATTERN FILE [SECONDS]
    local deadline=$((SECONDS + ${3:-10}))
    while ((SECONDS <= deadline)); do
        grep -q -- "$1" "$2" 2>/dev/null && return 0
        sleep 0.05
    done
    echo "$step_name: no line matching '$1' in $2 within ${3:-10} s:" >&2
    cat "$2" >&2 || true
    return 1
}

spawn() {  # NAME CMD…
    local name=$1; shift
    "$@" > "$work/$name.out" 2> "$work/$name.err" &
    harness_pids+=($!)
    printf -v "${name}_pid" '%s' "$!"
}

sigil_serve() {  # NAME [FLAGS…]
    local name=$1; shift
    local data=()
    case " $* " in *" --data-dir "*) ;; *) data=(--data-dir "$work/$name-data") ;; esac
    need sigil
    spawn "$name" "$bin/sigil" serve --port 0 --ui-port 0 "${data[@]}" "$@"
    sigil_ready "$name" "$@"
}

sigil_ready() {  # NAME [FLAGS…]: a `sigil serve` started by `spawn NAME …` printed its URLs (and tokens)
    local name=$1; shift
    local out="$work/$name.out"
    wait_for '^Approval URL: ' "$out" 30 || { cat "$work/$name.err" >&2; fail "sigil serve ($name) did not start"; }
    local previous="" flag
    for flag in "$@"; do
        [ "$previous" = --client ] && { wait_for "^Client token for $flag: " "$out" 10 || fail "no token for client $flag"; }
        previous=$flag
    done
    local bridge approval
    bridge=$(sed -n 's/^Bridge URL: *\(\S*\).*/\1/p' "$out" | head -1)
    approval=$(sed -n 's/^Approval URL: *\(\S*\).*/\1/p' "$out" | head -1)
    [ -n "$bridge" ] || fail "sigil serve ($name) printed no bridge URL"
    printf -v "${name}_bridge" '%s' "$bridge"
    printf -v "${name}_gateway" '%s' "${bridge%/bridge.js}"
    printf -v "${name}_ui" '%s' "${approval%%/#*}"
    printf -v "${name}_token" '%s' "${approval##*#token=}"
    printf -v "${name}_out" '%s' "$out"
    printf -v "${name}_err" '%s' "$work/$name.err"
}

client_token() {  # NAME CLIENT → the bearer token `sigil serve --client CLIENT` printed
    local out_var="${1}_out"
    sed -n "s/^Client token for $2: \([0-9a-f]*\)\$/\1/p" "${!out_var}"
}

sigil_stop() {  # NAME
    local pid_var="${1}_pid"
    local pid=${!pid_var}
    kill -TERM "$pid" 2>/dev/null || true
    local status=0
    for _ in $(seq 1 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    kill -0 "$pid" 2>/dev/null && { kill -KILL "$pid"; fail "sigil serve ($1) did not exit within 10 s of SIGTERM"; }
    wait "$pid" || status=$?
    [ "$status" = 0 ] || fail "sigil serve ($1) exited $status after SIGTERM"
}
