#!/usr/bin/env bash
# Interop of BIP32 derivation, ICON keys and ICON v3 transactions (issue 12) with bip-utils, iconsdk
# and coincurve from PyPI, through the IconInterop JSON-lines filter: random seeds and paths (xprv/
# xpub), mnemonics at m/44'/74'/0'/0/n (BIP39 seed, address), signatures in both directions, random
# transactions (serialization, hash, signature recovering to `from`) and one-change refusals.
# ICON_INTEROP_ROUNDS sets the scale (default 200: about 2,500 checks); seeded, so reproducible.
# tier: fast
# typical: 3 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need IconInterop
timeout 300 "$py" "$root/scripts/interop/bip32_icon_interop.py" "$bin/IconInterop" \
    --rounds "${ICON_INTEROP_ROUNDS:-200}" --seed "${ICON_INTEROP_SEED:-20261125}"
