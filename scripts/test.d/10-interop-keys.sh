#!/usr/bin/env bash
# Interop of `sigil key` with schnorrkel (py-sr25519-bindings), ed25519-zebra, libsecp256k1
# (coincurve), substrate-bip39 and substrate-interface: hundreds of sigil signatures verified by the
# libraries, library signatures verified by sigil (corrupted ones rejected), and addresses for
# random mnemonics and derivation paths compared (about 800 sigil invocations, 2×cores at a time).
# Bounded: under a minute on an idle 2-core machine, under three when it is shared; hard limit 5 minutes.
# KEYS_INTEROP_ROUNDS overrides the number of signatures per scheme (default 100; 30 in the fast tier).
# tier: fast
# typical: 15 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need sigil
timeout 300 "$py" "$root/scripts/interop/keys_interop.py" "$bin/sigil" \
    --rounds "${KEYS_INTEROP_ROUNDS:-$(by_tier 30 100)}"
