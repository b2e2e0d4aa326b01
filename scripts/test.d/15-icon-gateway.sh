#!/usr/bin/env bash
# ICON through the gateway (issue 12): ICON keystore files both ways with iconsdk/eth-keyfile, and
# ICONex Connect v1 (POST and the GET redirect form) against `sigil serve --dev --auto-approve` whose
# --icon-rpc is IconTestDoubleNode, a test double that verifies every submitted transaction with
# iconsdk + coincurve. Seeded random transactions both ways, the v1 error table, no-node refusals.
# ICON_GATEWAY_ROUNDS sets the scale (default 200), ICON_GATEWAY_SEED the seed.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
"$root/scripts/setup" --python >&2
bin=$(swift build --show-bin-path)
[ -x "$bin/sigil" ] || swift build --product sigil >&2
timeout 600 "$root/.venv-test/bin/python" -u "$root/scripts/interop/icon_gateway_interop.py" "$bin/sigil" \
    --rounds "${ICON_GATEWAY_ROUNDS:-200}" --seed "${ICON_GATEWAY_SEED:-20261125}"
