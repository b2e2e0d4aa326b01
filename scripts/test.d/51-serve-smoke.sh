#!/usr/bin/env bash
# `sigil serve` end to end on free ports: prints the URLs it serves before accepting, serves
# public/bridge.js byte for byte (gzip and 304 too), the approval port answers, a second serve on the
# same data directory refuses, SIGTERM exits 0.
# tier: fast
# typical: 2 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need sigil
sigil="$bin/sigil"
sigil_serve smoke --data-dir "$work/data"
dapp=$smoke_bridge
ui="$smoke_ui/"
curl --max-time 10 -sf "$dapp" | cmp - public/bridge.js
etag=$(curl --max-time 10 -sfI "$dapp" | tr -d '\r' | sed -n 's/^ETag: //p')
[ "$(curl --max-time 10 -s -o /dev/null -w '%{http_code}' -H "If-None-Match: $etag" "$dapp")" = 304 ]
curl --max-time 10 -sf "$ui" | grep -q "Sigil is running"
[ "$(curl --max-time 10 -s -o /dev/null -w '%{http_code}' "${dapp%/bridge.js}/missing.js")" = 404 ]
# One server per data directory: a second `sigil serve` on it refuses, naming the lock.
if timeout 20 "$sigil" serve --data-dir "$work/data" --port 0 --ui-port 0 > "$work/out2" 2> "$work/err2"; then
    echo "a second serve on the same data directory started" >&2; exit 1
fi
grep -q "serve.lock is locked" "$work/err2" || { cat "$work/out2" "$work/err2" >&2; echo "second serve: no clear refusal" >&2; exit 1; }
# Bounded: SIGTERM must end the process, with status 0, within 10 s.
sigil_stop smoke
echo "serve smoke test: ok ($dapp, $ui)"
