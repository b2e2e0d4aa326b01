"""/healthz, `sigil health`, /metrics and the structured logs of a real `sigil serve`, end to end.

Starts `sigil serve --dev --auto-approve --port 0 --ui-port 0 --log-format json --log-level trace`
with a client token and a metrics token file, makes requests (among them real signatures with the
sr25519, ed25519 and ecdsa //Alice dev accounts through the HTTP API, docs/protocol.md §6), scrapes
/metrics, parses it with prometheus_client's reference text-format parser, and checks that the
counters moved by exactly the right amounts. Then: /metrics refuses an unauthenticated scraper with
401; every stderr line is one JSON object; no log line holds a token, the dev phrase, a secret seed or
the dev password; /healthz and `sigil health` report healthy, then unhealthy once the server stops.

Usage: metrics_e2e.py --sigil PATH
"""
import argparse
import collections
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse

from prometheus_client.parser import text_string_to_metric_families

sys.path.insert(0, os.path.dirname(__file__))
from sigil_process import SigilProcess  # noqa: E402

DEV_PHRASE = "bottom drive obey lake curtain smoke basket hold race lonely fit walk"
# //Alice sr25519 mini-secret (subkey inspect //Alice): must never be logged.
ALICE_SEED = "e5be9a5092b81bca64be81d212e7f2f9eba183bb7a90954f7b76361f6edb5c0a"


def request(base, method, path, headers=None, body=None, timeout=10):
    url = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=timeout)
    data = json.dumps(body).encode() if body is not None else None
    conn.request(method, path, body=data, headers=headers or {})
    response = conn.getresponse()
    payload = response.read()
    conn.close()
    return response.status, dict(response.getheaders()), payload


def scrape(ui, token):
    status, headers, body = request(ui, "GET", "/metrics", {"Authorization": "Bearer " + token})
    assert status == 200, f"/metrics answered {status}"
    assert headers.get("Content-Type", "").startswith("text/plain; version=0.0.4"), headers
    samples = {}
    families = {}
    for family in text_string_to_metric_families(body.decode()):
        families[family.name] = family.type
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return families, samples


def value(samples, name, **labels):
    return samples.get((name, frozenset(labels.items())), 0.0)


def delta(before, after, name, **labels):
    return value(after, name, **labels) - value(before, name, **labels)


class Client:
    """A token client (docs/protocol.md §6) that records how many requests of each status it made."""

    def __init__(self, gateway, token, session):
        self.gateway, self.token, self.session = gateway, token, session
        self.made = collections.Counter()
        self.next_id = 1

    def headers(self):
        return {"Authorization": "Bearer " + self.token, "X-Sigil-Session": self.session,
                "Content-Type": "application/json"}

    def send(self, message, body):
        rid = str(self.next_id)
        self.next_id += 1
        status, _, payload = request(self.gateway, "POST", "/v1/request", self.headers(),
                                     {"id": rid, "message": message, "request": body})
        self.made[("/v1/request", "POST", status)] += 1
        if status == 200:
            return json.loads(payload)
        assert status == 202, f"{message}: HTTP {status} {payload!r}"
        # Pending: long-poll the session's event log for the reply.
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            status, _, payload = request(self.gateway, "GET", f"/v1/poll?session={self.session}",
                                         {"Authorization": "Bearer " + self.token}, timeout=40)
            self.made[("/v1/poll", "GET", status)] += 1
            for event in json.loads(payload)["events"]:
                if event["data"].get("id") == rid:
                    return event["data"]
        raise AssertionError(f"no reply to {message}")


def verify_signatures(signed, accounts):
    """Checks the sr25519 and ed25519 signatures with independent libraries."""
    import nacl.signing
    import sr25519
    from substrateinterface.utils.ss58 import ss58_decode
    for scheme, (message, signature) in signed.items():
        address = accounts[scheme]["address"]
        public = bytes.fromhex(ss58_decode(address))
        wrapped = b"<Bytes>" + message + b"</Bytes>"
        sig = bytes.fromhex(signature[2:])
        if scheme == "sr25519":
            assert sr25519.verify(sig, wrapped, public), "sr25519 signature does not verify"
        elif scheme == "ed25519":
            nacl.signing.VerifyKey(public).verify(wrapped, sig)
        elif scheme == "ecdsa":
            assert len(sig) == 65, f"ecdsa signature has {len(sig)} bytes"


def health(sigil, ui):
    return subprocess.run([sigil, "health", "--url", ui, "--timeout", "3"], capture_output=True, text=True,
                          timeout=30)


def open_stream(gateway, token, session):
    url = urllib.parse.urlsplit(gateway)
    s = socket.create_connection((url.hostname, url.port), timeout=10)
    s.sendall((f"GET /v1/events?session={session} HTTP/1.1\r\nHost: {url.netloc}\r\n"
               f"Authorization: Bearer {token}\r\nAccept: text/event-stream\r\n\r\n").encode())
    seen = b""
    while b"event: hello" not in seen:
        chunk = s.recv(4096)
        assert chunk, "event stream closed before hello"
        seen += chunk
    return s


def wait_for(condition, what, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError("timed out waiting for " + what)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sigil", required=True)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="sigil-metrics-")
    metrics_token = "scrape-" + os.urandom(16).hex()
    token_file = os.path.join(work, "metrics.token")
    with open(token_file, "w") as f:
        f.write(metrics_token + "\n")
    os.chmod(token_file, 0o600)

    sigil = SigilProcess(args.sigil, "--auto-approve", "--client", "metrics-e2e", "--log-format", "json",
                         "--log-level", "trace", "--metrics-token-file", token_file)
    client_token = sigil.client_tokens["metrics-e2e"]
    ui, gateway = sigil.ui, sigil.gateway
    checks = 0
    try:
        # Liveness.
        status, _, body = request(ui, "GET", "/healthz")
        assert status == 200 and json.loads(body)["status"] == "ok", body
        result = health(args.sigil, ui)
        assert result.returncode == 0 and result.stdout.startswith("healthy"), result
        checks += 2

        # /metrics refuses anyone without a token, and the approval token in the query string.
        for headers, path in [({}, "/metrics"), ({"Authorization": "Bearer nope-nope-nope-nope"}, "/metrics"),
                              ({"Authorization": "Bearer " + client_token}, "/metrics"),
                              ({}, "/metrics?token=" + sigil.token)]:
            status, response_headers, _ = request(ui, "GET", path, headers)
            assert status == 401, f"{path} {list(headers)}: {status}"
            assert response_headers.get("WWW-Authenticate", "").startswith("Bearer"), response_headers
        # The approval token works too (X-Sigil-Token, as the approval page sends it).
        assert request(ui, "GET", "/metrics", {"X-Sigil-Token": sigil.token})[0] == 200
        checks += 5

        families, before = scrape(ui, metrics_token)
        for name, kind in [("sigil_http_requests", "counter"), ("sigil_http_request_duration_seconds", "histogram"),
                           ("sigil_http_open_connections", "gauge"), ("sigil_http_open_event_streams", "gauge"),
                           ("sigil_pending_approvals", "gauge"), ("sigil_signatures", "counter"),
                           ("process_start_time_seconds", "gauge")]:
            assert families.get(name) == kind, f"{name}: {families.get(name)}"
        start = value(before, "process_start_time_seconds")
        assert abs(start - time.time()) < 600, start
        checks += 1

        # Traffic: connect, list accounts, sign with one account of each scheme.
        client = Client(gateway, client_token, "metrics-session-1")
        reply = client.send("pub(authorize.tab)", {"origin": "metrics e2e"})
        assert reply.get("response", {}).get("result") is True, reply
        accounts_reply = client.send("pub(accounts.list)", {})
        by_type = {}
        for account in accounts_reply["response"]:
            by_type.setdefault(account["type"], account)
        assert {"sr25519", "ed25519", "ecdsa"} <= set(by_type), by_type
        signed = {}
        for scheme in ["sr25519", "ed25519", "ecdsa"]:
            message = f"metrics e2e {scheme}".encode()
            reply = client.send("pub(bytes.sign)", {"address": by_type[scheme]["address"],
                                                    "data": "0x" + message.hex(), "type": "bytes"})
            signed[scheme] = (message, reply["response"]["signature"])
        verify_signatures(signed, by_type)
        # A static file, a 404 on each port, the health endpoint.
        assert request(gateway, "GET", "/bridge.js")[0] == 200
        assert request(gateway, "GET", "/missing.js")[0] == 404
        assert request(ui, "GET", "/no/such/page?token=" + sigil.token)[0] == 404
        assert request(ui, "GET", "/healthz")[0] == 200
        checks += 4

        _, after = scrape(ui, metrics_token)
        # Requests by route and status moved by exactly what this script sent.
        for (route, method, status), count in client.made.items():
            got = delta(before, after, "sigil_http_requests_total", server="dapp", route=route, method=method,
                        status=str(status))
            assert got == count, f"{method} {route} {status}: +{got}, expected +{count}"
        for server, route, status, count in [("dapp", "/*", "200", 1), ("dapp", "/*", "404", 1),
                                             ("ui", "unmatched", "404", 1), ("ui", "/healthz", "200", 1),
                                             ("ui", "/metrics", "200", 1)]:
            got = delta(before, after, "sigil_http_requests_total", server=server, route=route, method="GET",
                        status=status)
            assert got == count, f"{server} GET {route} {status}: +{got}, expected +{count}"
        # No raw path or query string became a label.
        assert not any("no/such" in str(labels) or "token" in str(labels) for _, labels in after), "raw path label"
        # Signatures by scheme.
        for scheme, count in [("sr25519", 1), ("ed25519", 1), ("ecdsa", 1), ("ethereum", 0)]:
            got = delta(before, after, "sigil_signatures_total", scheme=scheme)
            assert got == count, f"signatures {scheme}: +{got}, expected +{count}"
        assert delta(before, after, "sigil_approvals_total", kind="bytes", decision="approved") == 3
        # The latency histogram counted every /v1/request, and its buckets are cumulative.
        posts = sum(c for (route, _, _), c in client.made.items() if route == "/v1/request")
        labels = dict(server="dapp", route="/v1/request")
        assert delta(before, after, "sigil_http_request_duration_seconds_count", **labels) == posts
        assert value(after, "sigil_http_request_duration_seconds_bucket", le="+Inf", **labels) == \
            value(after, "sigil_http_request_duration_seconds_count", **labels)
        buckets = sorted((float(dict(l)["le"]), v) for (n, l), v in after.items()
                         if n == "sigil_http_request_duration_seconds_bucket" and dict(l).get("route") == "/v1/request")
        assert all(a[1] <= b[1] for a, b in zip(buckets, buckets[1:])), buckets
        assert value(after, "sigil_pending_approvals") == 0
        ui_port = urllib.parse.urlsplit(ui).port
        assert value(after, "sigil_http_open_connections", server="ui", port=str(ui_port)) >= 1
        checks += 6

        # Open event streams: a gauge per port that follows a client's stream.
        dapp_port = str(urllib.parse.urlsplit(gateway).port)
        stream = open_stream(gateway, client_token, "metrics-session-1")
        wait_for(lambda: value(scrape(ui, metrics_token)[1], "sigil_http_open_event_streams", server="dapp",
                               port=dapp_port) == 1, "an open stream in the gauge")
        stream.close()
        wait_for(lambda: value(scrape(ui, metrics_token)[1], "sigil_http_open_event_streams", server="dapp",
                               port=dapp_port) == 0, "the stream gauge to fall back to 0")
        checks += 1
    finally:
        sigil.stop()

    # Unhealthy once stopped: a one-line reason, exit 1.
    result = health(args.sigil, ui)
    assert result.returncode == 1, result
    assert result.stderr.startswith("unhealthy:") and result.stderr.count("\n") == 1, result.stderr
    checks += 1

    # Logs: one JSON object per line with the fixed fields; the events are there; no secret anywhere.
    time.sleep(0)  # the drain threads have seen EOF once the process exited
    lines = [line for line in sigil.stderr_lines if line.strip()]
    parsed = []
    for line in lines:
        obj = json.loads(line)
        assert {"timestamp", "level", "label", "message"} <= set(obj), line
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", obj["timestamp"]), obj["timestamp"]
        parsed.append(obj)
    messages = collections.Counter(o["message"] for o in parsed)
    for event in ["starting", "listening", "approval decided", "shutting down", "stopped"]:
        assert messages[event] >= 1, f"no {event!r} log line: {messages}"
    # One line per decision; `scheme` exactly on those that made a signature.
    signed_lines = [o for o in parsed if o["message"] == "approval decided" and "scheme" in o]
    assert sorted(o["scheme"] for o in signed_lines) == ["ecdsa", "ed25519", "sr25519"], signed_lines
    assert all(o["origin"] == "client:metrics-e2e" for o in signed_lines), signed_lines
    access = [o for o in parsed if o["message"] == "request"]
    assert access and all({"request_id", "method", "route", "status", "duration_ms", "bytes"} <= set(o)
                          for o in access), access[:3]
    assert len({o["request_id"] for o in access}) == len(access), "request ids repeat"
    secrets = [sigil.token, client_token, metrics_token, DEV_PHRASE, "bottom drive", ALICE_SEED]
    for line in lines:
        for secret in secrets:
            assert secret not in line, "a log line holds a secret: " + line[:120]
        assert not re.search(r"sigil-dev(?![-\w])", line), "a log line holds the dev password: " + line[:120]
        assert "?token=" not in line and "authorization" not in line.lower(), line[:160]
    checks += 3
    print(f"metrics e2e: ok ({checks} checks, {len(lines)} log lines, {len(access)} access lines)")


if __name__ == "__main__":
    main()
