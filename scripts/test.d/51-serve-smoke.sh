#!/usr/bin/env bash
# `sigil serve` end to end on free ports: prints the URLs it serves before accepting, serves
# public/bridge.js byte for byte (gzip and 304 too), the approval port answers, a second serve on the
# same data directory refuses, SIGTERM exits 0.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
bin="$(swift build --show-bin-path)/sigil"
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
"$bin" serve --data-dir "$work/data" --port 0 --ui-port 0 > "$work/out" 2> "$work/err" &
pid=$!
for _ in $(seq 1 200); do grep -q approvals "$work/out" 2>/dev/null && break; python3 -c 'import time; time.sleep(0.05)'; done
dapp=$(grep -o 'http://127.0.0.1:[0-9]*/bridge.js' "$work/out" | head -1)
ui=$(grep -o 'http://127.0.0.1:[0-9]*/' "$work/out" | tail -1)
[ -n "$dapp" ] && [ -n "$ui" ] || { cat "$work/out" "$work/err" >&2; echo "serve printed no URLs" >&2; exit 1; }
curl --max-time 10 -sf "$dapp" | cmp - public/bridge.js
etag=$(curl --max-time 10 -sfI "$dapp" | tr -d '\r' | sed -n 's/^ETag: //p')
[ "$(curl --max-time 10 -s -o /dev/null -w '%{http_code}' -H "If-None-Match: $etag" "$dapp")" = 304 ]
curl --max-time 10 -sf "$ui" | grep -q "Sigil is running"
[ "$(curl --max-time 10 -s -o /dev/null -w '%{http_code}' "${dapp%/bridge.js}/missing.js")" = 404 ]
# One server per data directory: a second `sigil serve` on it refuses, naming the lock.
if timeout 20 "$bin" serve --data-dir "$work/data" --port 0 --ui-port 0 > "$work/out2" 2> "$work/err2"; then
    echo "a second serve on the same data directory started" >&2; exit 1
fi
grep -q "serve.lock is locked" "$work/err2" || { cat "$work/out2" "$work/err2" >&2; echo "second serve: no clear refusal" >&2; exit 1; }
kill -TERM "$pid"
# Bounded: SIGTERM must end the process within 10 s.
for _ in $(seq 1 200); do kill -0 "$pid" 2>/dev/null || break; python3 -c 'import time; time.sleep(0.05)'; done
if kill -0 "$pid" 2>/dev/null; then echo "serve did not exit on SIGTERM" >&2; kill -KILL "$pid"; exit 1; fi
wait "$pid"
echo "serve smoke test: ok ($dapp, $ui)"
