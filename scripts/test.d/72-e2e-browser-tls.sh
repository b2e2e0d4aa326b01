#!/usr/bin/env bash
# End-to-end over HTTPS in a real browser: an https dapp page loads the bridge from
# `sigil serve --tls-cert/--tls-key`, with Sigil's self-signed certificate trusted through a
# throw-away NSS database (certutil, scripts/setup --browser), never by ignoring certificate errors;
# without that trust the bridge fails with net::ERR_CERT_AUTHORITY_INVALID. Signatures made over
# https are verified independently. See scripts/e2e/e2e_browser_tls.py. About 30 s; hard limit 2 min.
# tier: full
# typical: 15 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need_browser
need sigil
timeout 120 "$py" -u scripts/e2e/e2e_browser_tls.py --sigil "$bin/sigil" --chromium /usr/bin/chromium
