#!/usr/bin/env bash
# `sigil key` command-line behaviour against known vectors (docs/reference/crypto.md §4; signatures.json):
# inspect output and JSON keys, URIs from stdin, deterministic ed25519/ecdsa signatures, verify
# exit codes (0 valid, 1 invalid with a one-line reason), --public hides secrets, generate
# round-trips through inspect, and refused URIs. Takes a few seconds.
# tier: fast
# typical: 6 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need sigil
sigil="$bin/sigil"
fails=0
expect() {  # description, expected, actual
    if [ "$2" != "$3" ]; then
        echo "FAIL: $1: expected [$2], got [$3]" >&2
        fails=$((fails + 1))
    fi
}
json_field() { python3 -c 'import json,sys; print(json.load(sys.stdin).get(sys.argv[1], "<absent>"))' "$1"; }

alice=5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY
out=$("$sigil" key inspect //Alice --json)
expect "sr25519 //Alice address" "$alice" "$(json_field ss58Address <<<"$out")"
expect "sr25519 //Alice seed" "0xe5be9a5092b81bca64be81d212e7f2f9eba183bb7a90954f7b76361f6edb5c0a" "$(json_field secretSeed <<<"$out")"
expect "json scheme" "sr25519" "$(json_field scheme <<<"$out")"
expect "json network" "substrate" "$(json_field network <<<"$out")"
out=$(echo "//Alice" | "$sigil" key inspect - --json --network polkadot)
expect "stdin URI, polkadot" "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5" "$(json_field ss58Address <<<"$out")"
out=$("$sigil" key inspect //Alice --json --network 7391 --public)
expect "--public hides the seed" "<absent>" "$(json_field secretSeed <<<"$out")"
expect "two-byte prefix" "unjKJQJrRd238pkUZZvzDQrfKuM39zBSnQ5zjAGAGcdRhaJTx" "$(json_field ss58Address <<<"$out")"
out=$("$sigil" key inspect "$alice" --public --json)
expect "inspect --public address" "0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d" "$(json_field publicKey <<<"$out")"
out=$("$sigil" key inspect //Alice --scheme ecdsa --json)
expect "ecdsa account" "5C7C2Z5sWbytvHpuLTvzKunnnRwQxft1jiqrLD5rhucQ5S9X" "$(json_field ss58Address <<<"$out")"
out=$("$sigil" key inspect //Alice --scheme ed25519 --json)
expect "ed25519 address" "5FA9nQDVg267DEd8m1ZypXLBnvN7SFxYwV7ndqSYGiN9TTpu" "$(json_field ss58Address <<<"$out")"
if "$sigil" key inspect //Alice --public | grep -qi "secret seed"; then
    echo "FAIL: --public printed a secret seed" >&2; fails=$((fails + 1))
fi

# Deterministic signatures (signatures.json ed25519-alice-bytes-hello / ecdsa-alice-bytes-hello).
sig=$("$sigil" key sign //Alice --scheme ed25519 --message hello --wrap)
expect "ed25519 <Bytes>hello</Bytes>" "0x5889ce090cf779bcb36e7c2716755ad44daacad91adca9a7d4c389210c2204469c32ef49926c8a07089a5c5200419396e4e6983679ddccfbcf5a4bf1c9eee106" "$sig"
sig2=$(echo //Alice | "$sigil" key sign - --scheme ed25519 --hex 0x3c42797465733e68656c6c6f3c2f42797465733e)
expect "ed25519 same bytes via --hex and stdin" "$sig" "$sig2"

# verify: 0 valid, 1 invalid with a one-line reason.
sr=$("$sigil" key sign //Alice --message hello --wrap)
"$sigil" key verify "$sr" "$alice" --message hello --wrap >/dev/null
expect "verify valid exit" 0 $?
set +e
reason=$("$sigil" key verify "$sr" "$alice" --message hello)
rc=$?
set -e
expect "verify unwrapped exit" 1 "$rc"
expect "one-line reason" 1 "$(printf '%s\n' "$reason" | wc -l)"
set +e
"$sigil" key verify 0x1234 "$alice" --message hello >/dev/null; expect "short signature exit" 1 $?
"$sigil" key verify "$sr" 5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQX --message hello --wrap >/dev/null
expect "bad address checksum exit" 1 $?
"$sigil" key sign /foo --message x >/dev/null 2>&1; expect "ambiguous URI refused" 1 $?
"$sigil" key sign "//Alice" --scheme ed25519 --message x --hex 0x00 >/dev/null 2>&1
[ $? -ne 0 ]; expect "both --message and --hex refused" 0 $?
err=$("$sigil" key inspect "legal winner thank year wave sausage worth useful legal winner thank wrong" 2>&1)
set -e
if grep -qE "sausage|winner" <<<"$err"; then echo "FAIL: error echoes the phrase" >&2; fails=$((fails + 1)); fi

# generate → inspect round trip.
gen=$("$sigil" key generate --words 15 --json --scheme ecdsa)
phrase=$(json_field secretPhrase <<<"$gen")
expect "15 words" 15 "$(wc -w <<<"$phrase")"
again=$(echo "$phrase" | "$sigil" key inspect - --scheme ecdsa --json)
expect "generate/inspect agree" "$(json_field ss58Address <<<"$gen")" "$(json_field ss58Address <<<"$again")"

# Ethereum (docs/reference/ethereum.md §10): the public `test … junk` mnemonic at m/44'/60'/0'/0/n
# (Hardhat's accounts), a raw key with or without 0x, --public, and errors that echo nothing.
junk="test test test test test test test test test test test junk"
out=$(echo "$junk" | "$sigil" key inspect - --scheme ethereum --json)
expect "ethereum mnemonic account 0" "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266" "$(json_field address <<<"$out")"
expect "ethereum path" "m/44'/60'/0'/0/0" "$(json_field path <<<"$out")"
expect "ethereum private key" "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80" "$(json_field privateKey <<<"$out")"
out=$(echo "$junk" | "$sigil" key inspect - --scheme ethereum --index 2 --public --json)
expect "ethereum index 2" "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" "$(json_field address <<<"$out")"
expect "ethereum --public hides the key" "<absent>" "$(json_field privateKey <<<"$out")"
out=$("$sigil" key inspect 59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d --scheme ethereum --json)
expect "ethereum raw key without 0x" "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" "$(json_field address <<<"$out")"
expect "a raw key has no path" "<absent>" "$(json_field path <<<"$out")"
out=$("$sigil" key inspect "$(json_field publicKey <<<"$out")" --scheme ethereum --public --json)
expect "ethereum address of a public key" "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" "$(json_field address <<<"$out")"
set +e
err=$(echo "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff" | "$sigil" key inspect - --scheme ethereum 2>&1)
expect "odd-length ethereum key exit" 1 $?
if grep -q "ac0974bec39a" <<<"$err"; then echo "FAIL: error echoes the key" >&2; fails=$((fails + 1)); fi
err=$(echo "test test test junk" | "$sigil" key inspect - --scheme ethereum 2>&1)
expect "short mnemonic exit" 1 $?
if grep -q "junk" <<<"$err"; then echo "FAIL: error echoes the phrase" >&2; fails=$((fails + 1)); fi
set -e

if [ "$fails" -ne 0 ]; then echo "cli-key: $fails failures" >&2; exit 1; fi
echo "cli-key: all checks passed" >&2
