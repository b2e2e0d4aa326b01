#!/usr/bin/env bash
# Soak, short (issue 15, scripts/soak): signatures, a connected site with its event stream, reconnecting
# tabs, slowloris and junk from 64 hostile origins at once against the real binary; no legitimate
# request may fail, RSS and descriptors must stay flat. 90 s here (SOAK_SECONDS); the documented run
# is scripts/soak's default of 20 minutes.
# tier: full
# typical: 110 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need sigil
SOAK_SECONDS="${SOAK_SECONDS:-90}" timeout 600 "$py" scripts/soak --sigil "$bin/sigil"
