#!/usr/bin/env bash
# Interop of the Internet Computer codec (issue 13) with icp-py-core, cbor2, coincurve and PyNaCl from
# PyPI, through the ICPInterop JSON-lines filter: random principals (text both ways, mutations,
# account ids, ICRC-1 text), request ids of random maps (cbor2-encoded), envelopes Sigil signs
# (secp256k1 and Ed25519, verified in Python: request id, DER → sender, signature, low-S) and
# envelopes icp-py-core signs (verified in Sigil, tampering refused), keysmith derivation, Candid
# values encoded by icp-py-core and known-method rendering.
# ICP_INTEROP_ROUNDS sets the scale (default 300: about 2,700 checks); seeded, so reproducible.
# tier: fast
# typical: 4 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need ICPInterop
timeout 300 "$py" "$root/scripts/interop/icp_interop.py" "$bin/ICPInterop" \
    --rounds "${ICP_INTEROP_ROUNDS:-300}" --seed "${ICP_INTEROP_SEED:-20261125}"
