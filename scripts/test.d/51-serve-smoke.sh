#!/usr/bin/env bash
# `sigil serve` end to end on free ports: prints the URLs it serves before accepting, serves
# public/bridge.js byte for byte (gzip and 304 too), the approval port answers, SIGTERM exits 0.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
bin="$(swift build --show-bin-path)/sigil"
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
"$bin" serve --port 0 --ui-port 0 > "$work/out" 2> "$work/err" &
pid=$!
for _ in $(seq 1 200); do grep -q approvals "$work/out" 2>/dev/null && break; python3 -c 'import time; time.sleep(0.05)'; done
dapp=$(grep -o 'http://127.0.0.1:[0-9]*/bridge.js' "$work/out" | head -1)
ui=$(grep -o 'http://127.0.0.1:[0-9]*/' "$work/out" | tail -1)
[ -n "$dapp" ] && [ -n "$ui" ] || { cat "$work/out" "$work/err" >&2; echo "serve printed no URLs" >&2; exit 1; }
curl -sf "$dapp" | cmp - public/bridge.js
etag=$(curl -sfI "$dapp" | tr -d '\r' | sed -n 's/^ETag: //p')
[ "$(curl -s -o /dev/null -w '%{http_code}' -H "If-None-Match: $etag" "$dapp")" = 304 ]
curl -sf "$ui" | grep -q "Sigil is running"
[ "$(curl -s -o /dev/null -w '%{http_code}' "${dapp%/bridge.js}/missing.js")" = 404 ]
kill -TERM "$pid"
wait "$pid"
echo "serve smoke test: ok ($dapp, $ui)"
