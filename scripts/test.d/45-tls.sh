#!/usr/bin/env bash
# HTTPS end to end: `sigil tls self-signed` writes a key (0600) and certificate; `sigil serve
# --tls-cert/--tls-key` prints https:// URLs on both ports; curl trusting only that certificate
# fetches /bridge.js byte for byte over TLS 1.3 and TLS 1.2; TLS 1.1, an untrusted client and plain
# HTTP to the TLS port are refused (and the server keeps serving); a mismatched key is refused at
# start with a message naming the file; SIGTERM exits 0; a certificate for 127.0.0.1 verifies too.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
bin="$(swift build --show-bin-path)/sigil"
work=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "45-tls: $*" >&2; cat "$work/out" "$work/err" 2>/dev/null >&2 || true; exit 1; }

"$bin" tls self-signed --host localhost --out-dir "$work" > "$work/gen"
cert="$work/localhost.cert.pem"
key="$work/localhost.key.pem"
[ "$(stat -c %a "$key")" = 600 ] || fail "key file mode is $(stat -c %a "$key"), not 600"
grep -q -- "-----BEGIN CERTIFICATE-----" "$cert" || fail "no certificate written"
if "$bin" tls self-signed --host localhost --out-dir "$work" > /dev/null 2>&1; then
    fail "self-signed overwrote existing files without --force"
fi
"$bin" tls self-signed --host other.test --out-dir "$work" > /dev/null

# A key that is not the certificate's: refused at start, naming the key file.
if "$bin" serve --tls-cert "$cert" --tls-key "$work/other.test.key.pem" --port 0 --ui-port 0 \
    > "$work/out" 2> "$work/err"; then
    fail "serve started with a mismatched key"
fi
grep -q "other.test.key.pem" "$work/err" || fail "mismatch error does not name the key file"

"$bin" serve --tls-cert "$cert" --tls-key "$key" --port 0 --ui-port 0 > "$work/out" 2> "$work/err" &
pid=$!
for _ in $(seq 1 200); do grep -q approvals "$work/out" 2>/dev/null && break; python3 -c 'import time; time.sleep(0.05)'; done
dapp=$(grep -o 'https://127.0.0.1:[0-9]*/bridge.js' "$work/out" | head -1)
ui=$(grep -o 'https://127.0.0.1:[0-9]*/' "$work/out" | tail -1)
[ -n "$dapp" ] && [ -n "$ui" ] || fail "serve printed no https URLs"
dapp_port=$(echo "$dapp" | sed 's|.*:\([0-9]*\)/.*|\1|')
ui_port=$(echo "$ui" | sed 's|.*:\([0-9]*\)/$|\1|')
url="https://localhost:$dapp_port/bridge.js"
ok() { curl -sS --max-time 10 --cacert "$cert" "$@"; }

ok "$url" | cmp - public/bridge.js || fail "bridge.js over TLS differs"
ok --tlsv1.2 --tls-max 1.2 "$url" | cmp - public/bridge.js || fail "TLS 1.2 fetch failed"
ok "https://localhost:$ui_port/" | grep -q "Sigil is running" || fail "approval page over TLS failed"
[ "$(ok -o /dev/null -w '%{http_code}' "https://localhost:$dapp_port/missing.js")" = 404 ] || fail "no 404 over TLS"

rc=0; curl -sS --max-time 10 --cacert "$cert" --tls-max 1.1 "$url" > /dev/null 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "TLS 1.1 was accepted"
rc=0; curl -sS --max-time 10 "$url" > /dev/null 2>&1 || rc=$?
[ "$rc" -eq 60 ] || fail "an untrusting client was not stopped by verification (curl exit $rc)"
rc=0; out=$(curl -sS --max-time 10 "http://127.0.0.1:$dapp_port/bridge.js" 2>/dev/null) || rc=$?
[ "$rc" -ne 0 ] || fail "plain HTTP to the TLS port got an answer"
[ -z "$out" ] || fail "plain HTTP to the TLS port got bytes back"
# Still serving after the refused clients.
ok "$url" | cmp - public/bridge.js || fail "server stopped serving after a plain-HTTP client"

kill -TERM "$pid"
wait "$pid" || fail "serve exited non-zero after SIGTERM"
pid=

# A certificate for an IP address (subjectAltName IP:127.0.0.1) verifies for https://127.0.0.1.
"$bin" tls self-signed --host 127.0.0.1 --out-dir "$work" > /dev/null
"$bin" serve --tls-cert "$work/127.0.0.1.cert.pem" --tls-key "$work/127.0.0.1.key.pem" --port 0 --ui-port 0 \
    > "$work/out" 2> "$work/err" &
pid=$!
for _ in $(seq 1 200); do grep -q approvals "$work/out" 2>/dev/null && break; python3 -c 'import time; time.sleep(0.05)'; done
ip_url=$(grep -o 'https://127.0.0.1:[0-9]*/bridge.js' "$work/out" | head -1)
[ -n "$ip_url" ] || fail "serve printed no https URL (IP certificate)"
curl -sS --max-time 10 --cacert "$work/127.0.0.1.cert.pem" "$ip_url" | cmp - public/bridge.js || fail "IP certificate fetch failed"
kill -TERM "$pid"
wait "$pid" || fail "serve exited non-zero after SIGTERM (IP certificate)"
pid=
echo "tls test: ok ($url, curl exit for plain HTTP: $rc)"
