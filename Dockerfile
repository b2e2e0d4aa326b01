# syntax=docker/dockerfile:1
# Sigil gateway image (docs/deployment.md).
#
#   docker build -t sigil .
#   docker run -d --name sigil -p 127.0.0.1:9715:9715 -p 127.0.0.1:9716:9716 -v sigil-data:/data sigil
#
# This machine's CI has no Docker engine: scripts/container-test builds and runs this file, unchanged,
# with podman + runc (docs/deployment.md "Checking the image"); scripts/test.d/60-docker.sh lints it
# (hadolint) and checks compose.yaml against it.

# ---- build: the Swift toolchain image, a release binary with the Swift runtime linked statically.
FROM swift:6.3.1-bookworm AS build
# The C libraries' -dev packages (the same as scripts/setup). Not version-pinned: bookworm is a
# stable release whose point and security updates replace these versions, so a pin would break the
# build at the next update and hold back OpenSSL fixes; the base image tag pins the release.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      pkg-config libsodium-dev libsecp256k1-dev libssl-dev zlib1g-dev libsqlite3-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Resolve dependencies in their own layer so source edits do not refetch them.
COPY Package.swift ./
RUN swift package resolve
# Tests/ only because Package.swift declares the test targets; they are not built.
COPY Sources ./Sources
COPY Tests ./Tests
COPY public ./public
# Stripped (symbols and debug info are ~3/4 of the binary); the debug info stays in this stage as
# /symbols/sigil.debug, linked by --add-gnu-debuglink, for symbolicating a crash:
#   docker build --target build -t sigil-build . && docker run --rm sigil-build cat /symbols/sigil.debug > sigil.debug
RUN swift build -c release --product sigil --static-swift-stdlib \
 && bin="$(swift build -c release --show-bin-path)/sigil" \
 && install -d /out/usr/local/bin /out/usr/local/share/sigil /symbols \
 && objcopy --only-keep-debug "$bin" /symbols/sigil.debug \
 && objcopy --strip-all --add-gnu-debuglink=/symbols/sigil.debug "$bin" /out/usr/local/bin/sigil \
 && chmod 0755 /out/usr/local/bin/sigil \
 && cp -R public /out/usr/local/share/sigil/public

# ---- runtime: slim Debian with only the shared libraries the binary links (NEEDED entries).
# apt's caches are removed in the same layer (the downloaded packages and its *.bin caches were 81 of
# this layer's 94 MB where the base image has no docker-clean apt configuration).
FROM debian:bookworm-slim AS runtime
# libc6, libgcc-s1 and libstdc++6 are already in the base image; they are listed because the binary
# links them (scripts/container-test compares this list with the binary's NEEDED libraries).
# No ca-certificates: sigil never makes an outgoing TLS connection. Not version-pinned (DL3008):
# see the build stage.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      libc6 libgcc-s1 libstdc++6 libsodium23 libsecp256k1-1 libssl3 zlib1g libsqlite3-0 \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/* /var/log/apt /var/log/dpkg.log \
 && groupadd --system --gid 10001 sigil \
 && useradd --system --uid 10001 --gid sigil --home-dir /data --no-create-home --shell /usr/sbin/nologin sigil \
 && mkdir -p /data \
 && chown 10001:10001 /data \
 && chmod 0700 /data
COPY --from=build /out/ /
# The data directory (accounts, connected sites, metadata; docs/deployment.md "Backups"). A new
# named volume takes its owner (10001) and mode (0700) from the image's /data.
# SIGIL_HOST: all interfaces also when the command is replaced (`docker run … sigil serve --dev`);
# SIGIL_TOKEN_OUTPUT=file: the approval URL and client tokens go to /data/approval-url (0600), not
# to stdout, which Docker collects as the container's log (docs/deployment.md).
# DL3064 flags SIGIL_TOKEN_OUTPUT for the word TOKEN; its value ("file") is where the token goes, not
# a secret (the token is made at each start and never appears in the image).
# hadolint ignore=DL3064
ENV SIGIL_HOME=/data SIGIL_HOST=0.0.0.0 SIGIL_TOKEN_OUTPUT=file
VOLUME ["/data"]
# Numeric, so that an orchestrator's "run as non-root" check can verify it without /etc/passwd.
USER 10001:10001
# 9715: dapps (bridge script and API); 9716: the approval page. Publish them on 127.0.0.1 unless a
# reverse proxy or TLS is in front (docs/deployment.md).
EXPOSE 9715 9716
# SIGTERM: sigil finishes in-flight responses, releases the data directory lock and exits 0.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["/usr/local/bin/sigil", "health"]
# Set by the builder: docker build --build-arg VERSION=1.2.0 --build-arg REVISION="$(git rev-parse HEAD)"
ARG VERSION=dev
ARG REVISION=unknown
LABEL org.opencontainers.image.title="sigil" \
      org.opencontainers.image.description="Signing gateway for Polkadot dapps: the polkadot-js extension protocol over HTTP, each request approved by a person" \
      org.opencontainers.image.documentation="docs/deployment.md in the source tree" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}"
# In a container the gateway must listen on all interfaces, so that published ports reach it; this
# is explicit here (--host 0.0.0.0) and sigil prints a warning for it. Accounts in /data are
# unlocked with a password from a secret file: -e SIGIL_PASSWORD_FILE=/run/secrets/sigil_password
# (compose.yaml); without accounts none is needed (docs/deployment.md).
ENTRYPOINT ["/usr/local/bin/sigil"]
CMD ["serve", "--host", "0.0.0.0"]
