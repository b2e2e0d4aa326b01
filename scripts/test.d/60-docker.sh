#!/usr/bin/env bash
# The container files, linted: the Dockerfile passes hadolint, the container scripts pass shellcheck, and compose.yaml's
#   structure agrees with the Dockerfile (command, health check, stop signal, ports and their
#   --public-url declarations, volume, secret). The image itself is built and run by
#   scripts/container-test (podman + runc) in the full tier's 62-container.
# tier: fast
# typical: 3 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
venv="$root/.venv-test/bin"

echo "hadolint $("$venv/hadolint" --version | grep -o '[0-9][0-9.]*' | head -1): Dockerfile"
"$venv/hadolint" --config .hadolint.yaml Dockerfile
echo "hadolint: no findings"

scripts=(scripts/docker-smoke scripts/container-test scripts/test scripts/lib/harness.sh scripts/test.d/19-harness.sh
    scripts/test.d/25-backup.sh scripts/test.d/60-docker.sh scripts/test.d/61-reverse-proxy.sh scripts/test.d/62-container.sh .ci/run)
"$venv/shellcheck" "${scripts[@]}"
echo "shellcheck: ${scripts[*]} clean"

"$venv/python" scripts/container/check_compose.py
