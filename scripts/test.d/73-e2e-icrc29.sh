#!/usr/bin/env bash
# ICRC-29 end to end in Chromium (Playwright, .venv-test) against `sigil serve --dev --ic-url` and a
# stand-in replica (a test double for the network). See scripts/e2e/icrc29_e2e.py.
# tier: fast
# typical: 8 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need_browser
need sigil
timeout 300 "$py" -u scripts/e2e/icrc29_e2e.py --sigil "$bin/sigil" --chromium /usr/bin/chromium
