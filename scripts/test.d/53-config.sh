#!/usr/bin/env bash
# `sigil serve` configuration through the real binary: flags > SIGIL_* environment > config file >
# default, shown by --print-config with each value's source; exact error messages (naming the field
# and its source) and exit status 78 before anything is created or bound; a warning for a misspelt
# SIGIL_ variable; and a server configured purely by environment + file serves /bridge.js.
# tier: fast
# typical: 4 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need sigil
sigil="$bin/sigil"
# A clean environment: no SIGIL_* from the caller (the harness's own variables are SIGILTEST_*).
for variable in $(env | sed -n 's/^\(SIGIL_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$variable"; done

# 1. Precedence and sources, as --print-config shows them.
cat > "$work/sigil.toml" <<'TOML'
# a config file
port = 1111
ui-port = 2222
log-level = "debug"
client = ["from-file"]
deny-host = [
  "evil.example",  # phishing
  "phish.example",
]
TOML
SIGIL_CONFIG="$work/sigil.toml" SIGIL_UI_PORT=3333 SIGIL_CLIENT="ci, deploy" SIGIL_DEV=1 \
    "$sigil" serve --port 4444 --print-config > "$work/printed"
expect_line() {  # key, value, source
    grep -Eq "^$1 = $2 +# $3\$" "$work/printed" || { cat "$work/printed" >&2; fail "print-config: no '$1 = $2  # $3'"; }
}
expect_line port 4444 --port
expect_line ui-port 3333 SIGIL_UI_PORT
expect_line log-level '"debug"' "$work/sigil.toml line 4"
expect_line client '\["ci", "deploy"\]' SIGIL_CLIENT
expect_line deny-host '\["evil.example", "phish.example"\]' "$work/sigil.toml line 6"
expect_line dev true SIGIL_DEV
expect_line approval-timeout 600 default
expect_line config "\"$work/sigil.toml\"" SIGIL_CONFIG
"$sigil" serve --print-config --no-dev --approve terminal > "$work/printed" 2>/dev/null
expect_line dev false --no-dev
expect_line approve '"terminal"' --approve

# Every option is documented in docs/configuration.md with its variable.
for key in $(sed -n 's/^\(# \)\{0,1\}\([a-z-]*\)\( =\| is not set\).*/\2/p' "$work/printed"); do
    variable="SIGIL_$(echo "$key" | tr 'a-z-' 'A-Z_')"
    grep -q "^| \`--$key.*| \`$variable\` |" docs/configuration.md || fail "docs/configuration.md lacks --$key / $variable"
done

# 2. Refusals: the exact message, exit status 78, nothing created (the data directory stays absent).
refuse() {  # expected message; then the command's environment assignments and arguments
    local expected=$1; shift
    set +e
    env SIGIL_DATA_DIR="$work/never" "$@" > "$work/out" 2> "$work/err"
    local status=$?
    set -e
    [ "$status" = 78 ] || { cat "$work/out" "$work/err" >&2; fail "exit status $status, not 78, for: $expected"; }
    grep -Fxq "error: $expected" "$work/err" || { cat "$work/err" >&2; fail "missing message: error: $expected"; }
    ! grep -q "Sigil is serving" "$work/out" || fail "a refused configuration started serving"
    [ ! -e "$work/never" ] || fail "a refused configuration created the data directory"
}
refuse "SIGIL_PORT: 'abc' is not a port number (0-65535)" SIGIL_PORT=abc "$sigil" serve --dev
refuse "--ui-port: '70000' is not a port number (0-65535)" "$sigil" serve --dev --ui-port 70000
refuse "SIGIL_DEV: 'yes' is not a boolean (use true or false, or 1 or 0)" SIGIL_DEV=yes "$sigil" serve
refuse "SIGIL_HOST: 'localhost' is not a numeric IPv4 or IPv6 address" SIGIL_HOST=localhost "$sigil" serve --dev
refuse "SIGIL_AUTO_APPROVE: auto-approve approves every request without asking; it is refused without dev (dev is false: default)" \
    SIGIL_AUTO_APPROVE=true "$sigil" serve
refuse "SIGIL_PASSWORD: a password is never taken from the environment; write it to a file (mode 0600, or a Docker secret) and set SIGIL_PASSWORD_FILE to its path" \
    SIGIL_PASSWORD=hunter2 "$sigil" serve
refuse "--config: cannot read '$work/missing.toml': no such file" "$sigil" serve --config "$work/missing.toml"
refuse "SIGIL_TLS_CERT: '$work/none.pem' does not exist" SIGIL_TLS_CERT="$work/none.pem" SIGIL_TLS_KEY="$work/none.pem" "$sigil" serve --dev
printf 'port = 0\nprot = 1\nui-port = "0"\n' > "$work/bad.toml"
refuse "$work/bad.toml line 2: key 'prot' is unknown (did you mean 'port'?)" "$sigil" serve --dev --config "$work/bad.toml"
refuse "$work/bad.toml line 3: key 'ui-port' must be an integer (a port number, 0-65535), not a string" \
    "$sigil" serve --dev --config "$work/bad.toml"
printf 'port = 0\nport = 1\n' > "$work/dup.toml"
refuse "$work/dup.toml line 2: key 'port' is already set on line 1" SIGIL_CONFIG="$work/dup.toml" "$sigil" serve --dev
printf '[serve]\nport = 0\n' > "$work/section.toml"
refuse "$work/section.toml line 1: sections ([table]) are not supported; write every key at the top level" \
    SIGIL_CONFIG="$work/section.toml" "$sigil" serve --dev

# A certificate and a key that do not match: refused at start (78) naming the key's source and file,
# before the data directory is created.
"$sigil" tls self-signed --host a.test --out-dir "$work" > /dev/null
"$sigil" tls self-signed --host b.test --out-dir "$work" > /dev/null
set +e
env SIGIL_DATA_DIR="$work/never" SIGIL_TLS_KEY="$work/b.test.key.pem" "$sigil" serve --tls-cert "$work/a.test.cert.pem" \
    > "$work/out" 2> "$work/err"
status=$?
set -e
[ "$status" = 78 ] || { cat "$work/err" >&2; fail "mismatched TLS key: exit status $status, not 78"; }
grep -q "^error: SIGIL_TLS_KEY: .*b.test.key.pem" "$work/err" || { cat "$work/err" >&2; fail "mismatched key not named"; }
[ ! -e "$work/never" ] || fail "a mismatched TLS key created the data directory"

# 3. A misspelt variable is a warning, not an error.
SIGIL_PROT=1 "$sigil" serve --print-config > /dev/null 2> "$work/err"
grep -Fxq "warning: SIGIL_PROT is not a sigil setting and is ignored (did you mean SIGIL_PORT?)" "$work/err" \
    || { cat "$work/err" >&2; fail "no warning for SIGIL_PROT"; }

# 4. A server configured by environment and file only (no flags) serves the bridge script.
printf 'scrape-token-0123456789\n' > "$work/metrics.token"
chmod 600 "$work/metrics.token"
printf 'port = 0\nui-port = 0\nclient = ["script"]\nlog-format = "json"\nmetrics-token-file = "%s"\n' \
    "$work/metrics.token" > "$work/serve.toml"
spawn envserve env SIGIL_CONFIG="$work/serve.toml" SIGIL_DATA_DIR="$work/data" SIGIL_LOG_LEVEL=info "$sigil" serve
sigil_ready envserve --client script
dapp=$envserve_bridge
curl --max-time 10 -sf "$dapp" | cmp - public/bridge.js || fail "bridge.js differs"
[ -n "$(client_token envserve script)" ] || fail "client from the file made no token"
[ -d "$work/data" ] || fail "SIGIL_DATA_DIR was not used"
ui="$envserve_ui/"
# The metrics token from the file opens /metrics (a wrong one does not); log lines are JSON.
[ "$(curl --max-time 10 -s -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer scrape-token-0123456789' "${ui}metrics")" = 200 ] \
    || fail "metrics-token-file from the config file does not open /metrics"
[ "$(curl --max-time 10 -s -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer wrong' "${ui}metrics")" = 401 ] \
    || fail "/metrics accepted a wrong token"
head -1 "$envserve_err" | python3 -c 'import json, sys; json.loads(sys.stdin.readline())' \
    || { head -3 "$envserve_err" >&2; fail "log-format = \"json\" from the file: stderr is not JSON lines"; }
sigil_stop envserve
echo "config: ok (precedence, 13 refusals, warning, serve from env + file: $dapp)"
