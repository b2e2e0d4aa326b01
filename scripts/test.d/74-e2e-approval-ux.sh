#!/usr/bin/env bash
# The approval experience in Chromium (issue 16): headline sentences, identicons (polkadot-js's
# vector), least privilege, keyboard only, 360/390 px, axe-core on every state, and screenshots of
# every state at 390 and 1280 px into docs/screenshots/ (README "Approval page"). See
# scripts/e2e/e2e_approval_ux.py. SIGIL_SCREENSHOTS=DIR writes them elsewhere.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
scripts/setup --python --browser
swift build --product sigil >&2
bin=$(swift build --show-bin-path)
timeout 300 .venv-test/bin/python -u scripts/e2e/e2e_approval_ux.py --sigil "$bin/sigil" --chromium /usr/bin/chromium \
    --screenshots "${SIGIL_SCREENSHOTS:-$root/docs/screenshots}"
