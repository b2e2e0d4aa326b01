#!/usr/bin/env bash
# docs/deployment.md's nginx reverse proxy, run for real: the document's nginx block (site values
# replaced) in front of `sigil serve` with TLS on both hops; bridge script, /healthz, unknown name
# and forged Host refused, approval API behind its token, a connection and a signature approved
# through the proxied approval port, event stream delivered promptly (scripts/container/proxy_check.py).
# tier: full
# typical: 5 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
scripts/setup --proxy
need sigil
sigil="$bin/sigil"
timeout 180 python3 scripts/container/proxy_check.py "$sigil"
