#!/usr/bin/env bash
# ICON through the gateway (issue 12): ICON keystore files both ways with iconsdk/eth-keyfile, and
# ICONex Connect v1 (POST and the GET redirect form) against `sigil serve --dev --auto-approve` whose
# --icon-rpc is IconTestDoubleNode, a test double that verifies every submitted transaction with
# iconsdk + coincurve. Seeded random transactions both ways, the v1 error table, no-node refusals.
# ICON_GATEWAY_ROUNDS sets the scale (default 200), ICON_GATEWAY_SEED the seed.
# tier: fast
# typical: 10 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need sigil
timeout 600 "$py" -u "$root/scripts/interop/icon_gateway_interop.py" "$bin/sigil" \
    --rounds "${ICON_GATEWAY_ROUNDS:-200}" --seed "${ICON_GATEWAY_SEED:-20261125}"
