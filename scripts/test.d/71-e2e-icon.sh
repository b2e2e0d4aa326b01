#!/usr/bin/env bash
# ICON end to end in a real browser (issue 12): Debian's chromium driven by Python Playwright
# (.venv-test); a page that uses only ICONEX_RELAY_REQUEST events, the approval page, and
# IconTestDoubleNode (verifies every transaction with iconsdk + coincurve). See scripts/e2e/e2e_icon.py.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
scripts/setup --browser
bin=$(swift build --show-bin-path)
[ -x "$bin/sigil" ] || swift build --product sigil >&2
timeout 300 .venv-test/bin/python -u scripts/e2e/e2e_icon.py --sigil "$bin/sigil" --chromium /usr/bin/chromium
