#!/usr/bin/env bash
# An EVM dapp in Chromium (issue 23): ethers v6 finds Sigil by EIP-6963, connects, signs a message and a Permit (eth-account recovers them), sends ETH and an ERC-20 transfer mined on a test chain; 4001, 4100, 4900.
# tier: fast
# typical: 22 s
# First the test chain alone (scripts/interop/ethereum_test_chain.py --self-check: eth-account signs,
# it decodes, recovers and mines), then bridge.js's provider against GatewayStandIn (a test double of
# POST /v1/ethereum, no Sigil), then the whole flow through `sigil serve --dev --eth-rpc <test chain>`
# with approvals clicked on the approval page and each state checked: in the full tier and when run
# by name or alone, axe-core at 390 and 1280 px (light and dark) and screenshots into docs/screenshots/;
# in the fast tier axe-core at 1280 px and no horizontal scroll at 390 px, no screenshots (so
# `scripts/test` leaves the tree clean); SIGIL_SCREENSHOTS=DIR photographs into DIR in either tier.
# ethers comes from ../shared/vendor/ethers (or
# SIGIL_VENDOR_DIR): without it the browser runs say NOT RUN, and fail under SIGILTEST_REQUIRE_VENDOR=1.
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need_browser
need sigil
timeout 120 "$py" -u scripts/interop/ethereum_test_chain.py --self-check
timeout 300 "$py" -u scripts/e2e/ethereum_e2e.py --standin --chromium /usr/bin/chromium
if [ -n "${SIGIL_SCREENSHOTS:-}" ]; then
    ux=(--screenshots "$SIGIL_SCREENSHOTS")
elif [ "$(by_tier fast full)" = fast ]; then
    ux=(--quick-ux)
else
    ux=(--screenshots "$root/docs/screenshots")
fi
timeout 300 "$py" -u scripts/e2e/ethereum_e2e.py --sigil "$bin/sigil" --chromium /usr/bin/chromium "${ux[@]}"
