#!/usr/bin/env bash
# ICON end to end in a real browser (issue 12): Debian's chromium driven by Python Playwright
# (.venv-test); a page that uses only ICONEX_RELAY_REQUEST events, the approval page, and
# IconTestDoubleNode (verifies every transaction with iconsdk + coincurve). See scripts/e2e/e2e_icon.py.
# tier: fast
# typical: 6 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need_browser
need sigil
timeout 300 "$py" -u scripts/e2e/e2e_icon.py --sigil "$bin/sigil" --chromium /usr/bin/chromium
