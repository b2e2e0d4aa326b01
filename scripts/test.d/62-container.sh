#!/usr/bin/env bash
# The real image: scripts/container-test builds ./Dockerfile with podman + runc and runs it (its
# header says what it checks and what it cannot prove). In the full tier only: 15-23 min on a fresh
# machine (debootstrap, the builder's packages, a release build), about 5 min with warm layers.
# tier: full
# typical: 900 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
timeout 1800 "$root/scripts/container-test"
