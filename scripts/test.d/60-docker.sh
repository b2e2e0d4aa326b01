#!/usr/bin/env bash
# The Docker image, checked without a Docker engine (issue 7):
#   hadolint on the Dockerfile (.hadolint.yaml: every finding fails, OCI labels required, Docker Hub
#   images only; no ignores but the justified DL3008 next to its instructions);
#   the docker scripts through shellcheck;
#   compose.yaml's structure and its agreement with the Dockerfile (PyYAML);
#   scripts/docker-rehearse: the Dockerfile's build and runtime steps on this machine (a release
#   build with --static-swift-stdlib, incremental after the first run), health, a signature through
#   the API, STOPSIGNAL;
#   scripts/docker-check-libs: the runtime packages are exactly the libraries that binary links;
#   the checks' own tests (the parser refuses unknown steps; drift is caught).
# scripts/docker-smoke (a real engine) is not run here: CI has none. scripts/container-test (the real
# image with podman + runc) is a CI step of its own after scripts/test (.ci/run); only linted here.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
scripts/setup --python
venv="$root/.venv-test/bin"

echo "hadolint $("$venv/hadolint" --version | grep -o '[0-9][0-9.]*' | head -1): Dockerfile"
"$venv/hadolint" --config .hadolint.yaml Dockerfile
echo "hadolint: no findings"

"$venv/shellcheck" scripts/docker-smoke scripts/container-test scripts/test.d/60-docker.sh scripts/test.d/61-reverse-proxy.sh .ci/run
echo "shellcheck: scripts/docker-smoke, scripts/container-test, scripts/test.d/60-docker.sh, 61-reverse-proxy.sh, .ci/run clean"

"$venv/python" scripts/docker/check_compose.py

log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Bounded: a fresh release build takes ~5 min on 2 idle cores; later runs are incremental.
timeout 1500 "$venv/python" scripts/docker-rehearse | tee "$log"
binary=$(sed -n 's/^staged binary: //p' "$log")
[ -x "$binary" ] || { echo "docker-rehearse printed no staged binary" >&2; exit 1; }

"$venv/python" scripts/docker-check-libs "$binary"

SIGIL_STAGED_BINARY="$binary" timeout 300 "$venv/pytest" -q -p no:cacheprovider scripts/docker/test_docker_checks.py
