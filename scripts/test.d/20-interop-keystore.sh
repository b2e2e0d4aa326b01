#!/usr/bin/env bash
# Interop of `sigil accounts` with the polkadot-js keyring JSON v3 format: exports decrypted by an
# independent Python decoder (hashlib.scrypt + PyNaCl, keys checked with schnorrkel, PyNaCl and
# libsecp256k1) and by substrate-interface; files written in Python (N = 2^15 and 2^17, single and
# batch-pkcs8, mnemonic) imported by sigil; wrong password, truncated and tampered files refused with
# nothing changed. Bounded: well under a minute on 2 cores. KEYSTORE_INTEROP_ROUNDS overrides rounds
# (default 3; 1 in the fast tier).
# tier: fast
# typical: 10 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need sigil
timeout 300 "$py" "$root/scripts/interop/keystore_interop.py" "$bin/sigil" \
    --rounds "${KEYSTORE_INTEROP_ROUNDS:-$(by_tier 1 3)}"
