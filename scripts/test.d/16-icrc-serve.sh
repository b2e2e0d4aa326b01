#!/usr/bin/env bash
# ICRC-25/27/29/49 through `sigil serve` end to end (issue 13): a stand-in replica (a TEST DOUBLE
# for the network, scripts/interop/icp_standin_replica.py: it checks every envelope's expiry, sender
# and signature with icp-py-core/cbor2/coincurve/PyNaCl and answers read_state with a
# certificate-shaped reply, but executes nothing and signs nothing) and `sigil serve --dev
# --auto-approve --ic-url`: permissions, accounts, an icrc1_transfer call whose contentMap and
# certificate come back; a foreign origin without permission gets 3000; blind signing is refused
# (2001); without --ic-url the call is 4000 and nothing is submitted.
# tier: fast
# typical: 5 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need sigil
sigil="$bin/sigil"

spawn replica "$py" scripts/interop/icp_standin_replica.py
wait_for '^port ' "$work/replica.out"
replica="http://127.0.0.1:$(sed -n 's/^port //p' "$work/replica.out")"

sigil_serve online --dev --auto-approve --ic-url "$replica"
sigil_serve offline --dev --auto-approve
online=$online_gateway
offline=$offline_gateway
timeout 120 "$py" scripts/interop/icrc_serve_check.py "$online" "$offline" "$work/replica.err"
# ICRC grants are in the one grant book (issue 24 item 5): `sigil origins list` shows the site and its
# scopes, `sigil origins revoke` ends them in the running server (its next reconcile) and in the store.
sigil_serve persist --dev --auto-approve --data-dir "$work/persist"
persist=$persist_gateway
icrc() { # $1: JSON-RPC method, $2: params JSON; prints the result as JSON
    "$py" - "$persist" "$1" "$2" <<'PY'
import json, sys, urllib.request
body = {"jsonrpc": "2.0", "id": 1, "method": sys.argv[2], "params": json.loads(sys.argv[3])}
request = urllib.request.Request(sys.argv[1] + "/v1/icrc", data=json.dumps(body).encode(),
                                 headers={"Origin": "https://ic.example", "Content-Type": "application/json"})
print(json.dumps(json.load(urllib.request.urlopen(request, timeout=60))["result"], sort_keys=True))
PY
}
icrc icrc25_request_permissions '{"scopes":[{"method":"icrc27_accounts"}]}' | grep -q '"state": "granted"'
"$sigil" origins list --data-dir "$work/persist" | grep -q "Internet Computer: icrc27_accounts"
"$sigil" origins list --json --data-dir "$work/persist" | grep -q '"https://ic.example"'
"$sigil" origins revoke https://ic.example --data-dir "$work/persist" | grep -q "Revoked https://ic.example."
"$sigil" origins list --data-dir "$work/persist" | grep -q "No site is connected."
revoked=0
for _ in $(seq 1 100); do
    if icrc icrc25_permissions '{}' | grep -q '"state": "granted"'; then "$py" -c 'import time; time.sleep(0.05)'; else revoked=1; break; fi
done
[ "$revoked" = 1 ] || { echo "the running server kept an ICRC grant revoked by sigil origins revoke" >&2; exit 1; }
# The per-site blind-signing switch (one setting per origin in the state database, docs/blind-signing.md).
"$sigil" origins blind-signing https://dapp.example on --data-dir "$work/data" | grep -q "Blind signing is ON"
"$sigil" origins blind-signing https://dapp.example off --data-dir "$work/data" | grep -q "Blind signing is off"
if "$sigil" origins blind-signing "https://dapp.example/path" on --data-dir "$work/data" 2>/dev/null; then
    echo "blind-signing accepted a URL that is not an origin" >&2; exit 1
fi
# ICP identities on the command line: keysmith's test mnemonic at index 1 (V-ICP-7), stored and listed.
phrase="verb bottom twelve symptom plastic believe beach cargo inherit viable dice loop"
printf 'pw\n' > "$work/pw"; chmod 600 "$work/pw"
"$sigil" key inspect --scheme icp "$phrase" --index 1 --json | grep -q '"principal" : "ncpzz-qv6a2-ult3n-4mmvz-gdrhx-ileg4-upz7f-7zfqi-affpy-zlkid-hae"\|"principal": "ncpzz-qv6a2-ult3n-4mmvz-gdrhx-ileg4-upz7f-7zfqi-affpy-zlkid-hae"'
echo "$phrase" | "$sigil" accounts add --chain icp - --index 1 --data-dir "$work/data" --password-file "$work/pw" > /dev/null
"$sigil" accounts list --chain icp --data-dir "$work/data" | grep -q "ncpzz-qv6a2-ult3n-4mmvz-gdrhx-ileg4-upz7f-7zfqi-affpy-zlkid-hae (secp256k1)  account 6bf62b34a4eeb32721aeb99fe598d760ca252a0324155fc8b0ef203f3fc620cc"
if echo "$phrase" | "$sigil" accounts add --chain icp - --index 1 --data-dir "$work/data" --password-file "$work/pw" 2>/dev/null; then
    echo "the same ICP identity was stored twice" >&2; exit 1
fi
# Ed25519 from the same mnemonic (SLIP-0010 at m/44'/223'/0'/0'/2', Internet Identity's scheme): the
# principal and account id computed independently by bip-utils (SLIP-0010) and icp-py-core.
want=$("$py" - "$phrase" <<'PY'
import sys
from bip_utils import Bip32Slip10Ed25519, Bip39SeedGenerator
from icp_identity import Identity
from icp_principal.principal import AccountIdentifier
seed = Bip39SeedGenerator(sys.argv[1]).Generate()
key = Bip32Slip10Ed25519.FromSeed(seed).DerivePath("m/44'/223'/0'/0'/2'").PrivateKey().Raw().ToBytes()
principal = Identity(privkey=key.hex(), type="ed25519").sender()
print(principal.to_str(), AccountIdentifier.new(principal).to_str().removeprefix("0x"))
PY
)
"$sigil" key inspect --scheme icp --ed25519 "$phrase" --index 2 --public --json | "$py" -c '
import json, sys
r = json.load(sys.stdin)
got = (r["principal"], r["accountId"], r["derivationPath"], r["algorithm"], "secretKey" in r)
want = (*sys.argv[1].split(), "m/'"44'/223'/0'/0'/2'"'", "ed25519", False)
sys.exit(0 if got == want else f"key inspect --ed25519: {got} != {want}")' "$want"
echo "$phrase" | "$sigil" accounts add --chain icp --ed25519 - --index 2 --data-dir "$work/data" --password-file "$work/pw" > /dev/null
"$sigil" accounts list --chain icp --data-dir "$work/data" | grep -q "${want% *} (ed25519)  account ${want#* }"
echo "icrc serve: ok"
