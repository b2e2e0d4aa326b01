#!/usr/bin/env bash
# /healthz, `sigil health`, /metrics (parsed with prometheus_client, counters checked against the
# requests made, among them real signatures through the HTTP API) and the JSON logs (no secret in any
# line) of a real `sigil serve --dev --auto-approve` on free ports. See scripts/e2e/metrics_e2e.py.
# tier: fast
# typical: 8 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need sigil
timeout 180 "$py" -u scripts/e2e/metrics_e2e.py --sigil "$bin/sigil"

# `sigil health` over HTTPS: verified with --cacert and the certificate's name, refused when the
# certificate is not trusted or the name does not match, accepted with --insecure-loopback on 127.0.0.1.
"$bin/sigil" tls self-signed --host localhost --out-dir "$work" > /dev/null
sigil_serve tls --dev --tls-cert "$work/localhost.cert.pem" --tls-key "$work/localhost.key.pem"
port=${tls_ui##*:}
expect() {  # expect STATUS ARGS...: `sigil health ARGS` exits STATUS
    local want=$1; shift
    set +e; "$bin/sigil" health --timeout 5 "$@" > "$work/h.out" 2> "$work/h.err"; local got=$?; set -e
    [ "$got" = "$want" ] || { cat "$work/h.out" "$work/h.err" >&2; echo "52-metrics: health $* exited $got, not $want" >&2; exit 1; }
}
expect 0 --url "https://localhost:$port" --cacert "$work/localhost.cert.pem"
expect 0 --tls --port "$port" --insecure-loopback
expect 1 --url "https://localhost:$port"                                   # not trusted
expect 1 --tls --port "$port" --cacert "$work/localhost.cert.pem"          # 127.0.0.1 is not the name
grep -q "verification failed" "$work/h.err" || { cat "$work/h.err" >&2; exit 1; }
expect 1 --port "$port"                                                    # plain HTTP to the TLS port
# No flags: the port and scheme come from the same environment `sigil serve` reads (a container's
# HEALTHCHECK); TLS known only from the environment is checked loopback-only without verification,
# while an explicit --cacert still verifies the name.
SIGIL_UI_PORT=$port SIGIL_TLS_CERT="$work/localhost.cert.pem" SIGIL_TLS_KEY="$work/localhost.key.pem" expect 0
grep -q "https://127.0.0.1:$port/healthz" "$work/h.out" || { cat "$work/h.out" >&2; exit 1; }
SIGIL_UI_PORT=$port SIGIL_TLS_CERT="$work/localhost.cert.pem" SIGIL_TLS_KEY="$work/localhost.key.pem" \
    expect 1 --cacert "$work/localhost.cert.pem"
SIGIL_UI_PORT=$port expect 1                                               # plain HTTP: no TLS in the environment
sigil_stop tls
expect 1 --tls --port "$port" --insecure-loopback                          # stopped
echo "sigil health over TLS: ok"
