#!/usr/bin/env bash
# End-to-end in a real browser: Debian's chromium (scripts/setup --browser) driven by Python
# Playwright (.venv-test) against `sigil serve --dev` on free ports. See scripts/e2e/e2e_browser.py.
# tier: fast
# typical: 90 s
. "$(dirname "$0")/../lib/harness.sh"
need_browser
need sigil
timeout 300 "$py" -u scripts/e2e/e2e_browser.py --sigil "$bin/sigil" --chromium /usr/bin/chromium
