#!/usr/bin/env bash
# End-to-end in a real browser: Debian's chromium (scripts/setup --browser) driven by Python
# Playwright (.venv-test) against `sigil serve --dev` on free ports. See scripts/e2e/e2e_browser.py.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
scripts/setup --browser
swift build --product sigil >&2
bin=$(swift build --show-bin-path)
timeout 300 .venv-test/bin/python -u scripts/e2e/e2e_browser.py --sigil "$bin/sigil" --chromium /usr/bin/chromium
