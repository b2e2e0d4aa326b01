#!/usr/bin/env bash
# End-to-end in a real browser: Debian's chromium (scripts/setup --browser) driven by Python
# Playwright (.venv-test) against `sigil serve --dev` on free ports (scripts/e2e/e2e_browser.py; the
# RFC-0078 signed transaction decoded in a dapp page with the vendored polkadot-js' registry.createType
# and verified with signatureVerify); then
# the real polkadot-js stack (../shared/vendor/polkadot-js: @polkadot/api's signAsync through Sigil's
# injected signer, approved on the page, against a test-double node that checks the extrinsic with
# scalecodec and schnorrkel; scripts/e2e/polkadot_api_e2e.py).
# tier: fast
# typical: 30 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need_browser
need sigil
timeout 300 "$py" -u scripts/e2e/e2e_browser.py --sigil "$bin/sigil" --chromium /usr/bin/chromium
timeout 300 "$py" -u scripts/e2e/polkadot_api_e2e.py --sigil "$bin/sigil" --chromium /usr/bin/chromium
