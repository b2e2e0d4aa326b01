#!/usr/bin/env bash
# ICRC-29 end to end in Chromium (Playwright, .venv-test) against `sigil serve --dev --ic-url` and a
# stand-in replica (a test double for the network). See scripts/e2e/icrc29_e2e.py.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
scripts/setup --python --browser
swift build --product sigil >&2
bin=$(swift build --show-bin-path)
timeout 300 .venv-test/bin/python -u scripts/e2e/icrc29_e2e.py --sigil "$bin/sigil" --chromium /usr/bin/chromium
