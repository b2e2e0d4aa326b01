#!/usr/bin/env bash
# tier: fast
# proves: the Dockerfile passes hadolint, the container scripts pass shellcheck, and compose.yaml's
#   structure agrees with the Dockerfile (command, health check, stop signal, ports and their
#   --public-url declarations, volume, secret). The image itself is built and run by
#   scripts/container-test (podman + runc), a CI step of its own (.ci/run).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
scripts/setup --python
venv="$root/.venv-test/bin"

echo "hadolint $("$venv/hadolint" --version | grep -o '[0-9][0-9.]*' | head -1): Dockerfile"
"$venv/hadolint" --config .hadolint.yaml Dockerfile
echo "hadolint: no findings"

scripts=(scripts/docker-smoke scripts/container-test scripts/test.d/60-docker.sh scripts/test.d/61-reverse-proxy.sh
    scripts/test.d/25-backup.sh .ci/run)
"$venv/shellcheck" "${scripts[@]}"
echo "shellcheck: ${scripts[*]} clean"

"$venv/python" scripts/container/check_compose.py
