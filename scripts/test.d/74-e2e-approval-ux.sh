#!/usr/bin/env bash
# The approval experience in Chromium (issue 16): headline sentences, identicons (polkadot-js's
# vector), least privilege, keyboard only, 360/390 px, axe-core on every state, and screenshots of
# every state at 390 and 1280 px into docs/screenshots/ (README "Approval page"). See
# scripts/e2e/e2e_approval_ux.py. SIGIL_SCREENSHOTS=DIR writes them elsewhere.
# tier: full
# typical: 50 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need_browser
need sigil
timeout 300 "$py" -u scripts/e2e/e2e_approval_ux.py --sigil "$bin/sigil" --chromium /usr/bin/chromium \
    --screenshots "${SIGIL_SCREENSHOTS:-$root/docs/screenshots}"
