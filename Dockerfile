# syntax=docker/dockerfile:1
# Sigil gateway image. First version (issue 2); the deployment issue completes it (health check,
# TLS, non-loopback warning wording, labels). Build: docker build -t sigil .
# Run:   docker run --rm -p 127.0.0.1:9715:9715 -p 127.0.0.1:9716:9716 -v sigil-data:/data sigil

FROM swift:6.3.1-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      pkg-config libsodium-dev libsecp256k1-dev libssl-dev zlib1g-dev libsqlite3-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Resolve dependencies in their own layer so source edits do not refetch them.
COPY Package.swift ./
RUN swift package resolve
COPY Sources ./Sources
COPY Tests ./Tests
COPY public ./public
RUN swift build -c release --product sigil --static-swift-stdlib \
 && install -D -m 0755 "$(swift build -c release --show-bin-path)/sigil" /out/usr/local/bin/sigil \
 && mkdir -p /out/usr/local/share/sigil \
 && cp -R public /out/usr/local/share/sigil/public

FROM debian:bookworm-slim AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      libsodium23 libsecp256k1-1 libssl3 zlib1g libsqlite3-0 ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin sigil \
 && mkdir -p /data && chown sigil:sigil /data && chmod 0700 /data
COPY --from=build /out/ /
USER sigil
ENV SIGIL_HOME=/data
VOLUME ["/data"]
EXPOSE 9715 9716
STOPSIGNAL SIGTERM
# In a container the gateway must listen on all interfaces; the flag is explicit and sigil warns.
ENTRYPOINT ["/usr/local/bin/sigil"]
CMD ["serve", "--host", "0.0.0.0"]
