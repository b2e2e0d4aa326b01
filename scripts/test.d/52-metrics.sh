#!/usr/bin/env bash
# /healthz, `sigil health`, /metrics (parsed with prometheus_client, counters checked against the
# requests made, among them real signatures through the HTTP API) and the JSON logs (no secret in any
# line) of a real `sigil serve --dev --auto-approve` on free ports. See scripts/e2e/metrics_e2e.py.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
scripts/setup --python
swift build --product sigil >&2
bin=$(swift build --show-bin-path)
timeout 180 .venv-test/bin/python -u scripts/e2e/metrics_e2e.py --sigil "$bin/sigil"
