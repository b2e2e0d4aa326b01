#!/usr/bin/env bash
# HTTPS end to end: `sigil tls self-signed` writes a key (0600) and certificate; `sigil serve
# --tls-cert/--tls-key` prints https:// URLs on both ports; curl trusting only that certificate
# fetches /bridge.js byte for byte over TLS 1.3 and TLS 1.2; TLS 1.1, an untrusted client and plain
# HTTP to the TLS port are refused (and the server keeps serving); a mismatched key is refused at
# start with a message naming the file; SIGTERM exits 0; a certificate for 127.0.0.1 verifies too.
# Plain HTTP to the TLS port gets no byte back and a clean close (OpenSSL recognises an HTTP request
# line and fails the handshake without an alert): curl exits 52, "Empty reply from server".
# Then a signing round trip as a backend script does it (docs/protocol.md §6), with curl trusting only
# the generated certificate: `serve --dev --auto-approve --client backend` over TLS, authorize.tab,
# accounts.list, bytes.sign for sr25519 and ed25519 //Alice; the signatures are verified here with
# schnorrkel (py-sr25519-bindings) and PyNaCl, independently of Sigil. The approval API accepts a
# POST from its own https origin and refuses the http origin of the same host and port.
# tier: fast
# typical: 5 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need sigil
sigil="$bin/sigil"

"$sigil" tls self-signed --host localhost --out-dir "$work" > "$work/gen"
cert="$work/localhost.cert.pem"
key="$work/localhost.key.pem"
[ "$(stat -c %a "$key")" = 600 ] || fail "key file mode is $(stat -c %a "$key"), not 600"
grep -q -- "-----BEGIN CERTIFICATE-----" "$cert" || fail "no certificate written"
if "$sigil" tls self-signed --host localhost --out-dir "$work" > /dev/null 2>&1; then
    fail "self-signed overwrote existing files without --force"
fi
"$sigil" tls self-signed --host other.test --out-dir "$work" > /dev/null

# A key that is not the certificate's: refused at start, naming the key file.
if "$sigil" serve --tls-cert "$cert" --tls-key "$work/other.test.key.pem" --port 0 --ui-port 0 \
    > "$work/out" 2> "$work/err"; then
    fail "serve started with a mismatched key"
fi
grep -q "other.test.key.pem" "$work/err" || fail "mismatch error does not name the key file"

sigil_serve tls --tls-cert "$cert" --tls-key "$key"
dapp=$tls_bridge
ui="$tls_ui/"
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
[ "$rc" -eq 52 ] || fail "plain HTTP to the TLS port: curl exit $rc, not 52 (empty reply, clean close)"
[ -z "$out" ] || fail "plain HTTP to the TLS port got bytes back"
# Still serving after the refused clients.
ok "$url" | cmp - public/bridge.js || fail "server stopped serving after a plain-HTTP client"

sigil_stop tls

# A certificate for an IP address (subjectAltName IP:127.0.0.1) verifies for https://127.0.0.1.
"$sigil" tls self-signed --host 127.0.0.1 --out-dir "$work" > /dev/null
sigil_serve ip --tls-cert "$work/127.0.0.1.cert.pem" --tls-key "$work/127.0.0.1.key.pem"
ip_url=$ip_bridge
[[ $ip_url == https://127.0.0.1:* ]] || fail "serve printed no https URL (IP certificate): $ip_url"
curl -sS --max-time 10 --cacert "$work/127.0.0.1.cert.pem" "$ip_url" | cmp - public/bridge.js || fail "IP certificate fetch failed"
sigil_stop ip

# A signing round trip over TLS through curl, trusting only the certificate (docs/protocol.md §6).
sigil_serve backend --dev --auto-approve --client backend --tls-cert "$cert" --tls-key "$key"
token=$(client_token backend backend)
dapp_port=${backend_gateway##*:}
ui_port=${backend_ui##*:}
ui_token=$backend_token
[ ${#token} -eq 64 ] && [ -n "$dapp_port" ] && [ -n "$ui_port" ] || fail "serve --client printed no token or https URLs"
gateway="https://localhost:$dapp_port"
send() {  # send ID MESSAGE REQUEST-JSON -> the JSON reply; fails unless answered now (200)
    local code
    code=$(curl -sS --max-time 10 --cacert "$cert" -o "$work/reply" -w '%{http_code}' "$gateway/v1/request" \
        -H "Authorization: Bearer $token" -H "X-Sigil-Session: tls-backend-1" -H "Content-Type: application/json" \
        -d "{\"id\":\"$1\",\"message\":\"$2\",\"request\":$3}") || fail "curl $2 failed"
    [ "$code" = 200 ] || fail "$2 answered HTTP $code: $(cat "$work/reply")"
    cat "$work/reply"
}
alice=5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY
alice_ed=5FA9nQDVg267DEd8m1ZypXLBnvN7SFxYwV7ndqSYGiN9TTpu
send 1 'pub(authorize.tab)' '{"origin":"backend over TLS"}' > "$work/authorize.json"
send 2 'pub(accounts.list)' '{}' > "$work/accounts.json"
send 3 'pub(bytes.sign)' "{\"address\":\"$alice\",\"data\":\"hello over TLS\",\"type\":\"bytes\"}" > "$work/sr.json"
send 4 'pub(bytes.sign)' "{\"address\":\"$alice_ed\",\"data\":\"0x00ff5349474c\",\"type\":\"bytes\"}" > "$work/ed.json"
"$py" - "$work" <<'PY' || fail "signing round trip over TLS did not verify"
import json, sys
import sr25519
from nacl.signing import VerifyKey
work = sys.argv[1]
load = lambda name: json.load(open(f"{work}/{name}.json"))
alice, alice_ed = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY", "5FA9nQDVg267DEd8m1ZypXLBnvN7SFxYwV7ndqSYGiN9TTpu"
auth = load("authorize")
assert auth["id"] == "1" and auth["response"]["result"] is True, auth
assert alice in auth["response"]["authorizedAccounts"] and alice_ed in auth["response"]["authorizedAccounts"], auth
accounts = {a["address"]: a for a in load("accounts")["response"]}
assert accounts[alice]["type"] == "sr25519" and accounts[alice_ed]["type"] == "ed25519", accounts
# Public keys of //Alice (sr25519: schnorrkel; ed25519: the well-known dev key), not taken from Sigil.
alice_sr_pub = bytes.fromhex("d43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d")
alice_ed_pub = bytes.fromhex("88dc3417d5058ec4b4503e0c12ea1a0a89be200fe98922423d4334014fa6b0ee")
sr = load("sr")
assert sr["id"] == "3", sr
sig = bytes.fromhex(sr["response"]["signature"][2:])
assert len(sig) == 64 and sr25519.verify(sig, b"<Bytes>hello over TLS</Bytes>", alice_sr_pub), sr
assert not sr25519.verify(sig, b"<Bytes>hello over TLs</Bytes>", alice_sr_pub)
ed = load("ed")
sig = bytes.fromhex(ed["response"]["signature"][2:])
VerifyKey(alice_ed_pub).verify(b"<Bytes>" + bytes.fromhex("00ff5349474c") + b"</Bytes>", sig)
print("  ok: sr25519 and ed25519 //Alice signatures made over TLS verify independently")
PY
# The approval API over TLS: its own https origin passes the same-origin gate (nothing is pending:
# 404), the http origin of the same host and port is another origin (403).
ui_post() {
    curl -sS --max-time 10 --cacert "$cert" -o /dev/null -w '%{http_code}' "https://localhost:$ui_port/api/reject" \
        -H "X-Sigil-Token: $ui_token" -H "Content-Type: application/json" -H "Origin: $1" -d '{"id":999}'
}
[ "$(ui_post "https://localhost:$ui_port")" = 404 ] || fail "the approval API refused its own https origin"
[ "$(ui_post "http://localhost:$ui_port")" = 403 ] || fail "the approval API accepted the http origin over TLS"
sigil_stop backend
echo "tls test: ok ($url; plain HTTP: curl exit 52; signing round trip over TLS verified)"
