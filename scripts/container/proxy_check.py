#!/usr/bin/env python3
"""Runs the nginx configuration printed in docs/deployment.md ("Behind a reverse proxy") in front of
a real `sigil serve`, so that the document's example is tested, not just written.

    proxy_check.py SIGIL_BINARY

The nginx block is taken from the document and only its site-specific values are replaced (each must
occur, else the document drifted): the public address 203.0.113.5 → 127.0.0.2, sigil.example.com →
sigil.test, ports 9715/9716 → two free ports, certificate paths → files made here with
`sigil tls self-signed`, the operators' network → 127.0.0.0/8. Sigil runs as the document says
(127.0.0.1, the same ports, --allowed-host, TLS with a self-signed localhost pair), with --dev
accounts. Checks through the proxy: the bridge script byte for byte, /healthz, an unknown TLS server
name refused, a forged Host refused, the approval API behind its token, a connection and a signature
each approved through the proxied approval page's API (its same-origin check), the signature
verified, the event stream delivered promptly (hello, then an account push).
"""
import errno
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import sign_through_api  # noqa: E402

PUBLIC = "127.0.0.2"
NAME = "sigil.test"


def fail(text):
    print(f"proxy_check: FAILED: {text}", file=sys.stderr, flush=True)
    sys.exit(1)


def say(text):
    print(f"proxy_check: {text}", flush=True)


def nginx_block():
    with open(os.path.join(ROOT, "docs", "deployment.md")) as f:
        blocks = re.findall(r"```nginx\n(.*?)```", f.read(), re.S)
    if len(blocks) != 1:
        fail(f"docs/deployment.md has {len(blocks)} nginx blocks, expected one")
    return blocks[0]


def substitute(text, old, new, regex=False):
    count = len(re.findall(old if regex else re.escape(old), text))
    if count == 0:
        fail(f"docs/deployment.md's nginx block no longer contains {old!r}")
    return re.sub(old if regex else re.escape(old), new, text)


def free_port():
    # Free on every address (nginx takes 127.0.0.2:P, sigil 127.0.0.1:P and [::1]:P).
    with socket.socket() as s:
        s.bind(("0.0.0.0", 0))
        port = s.getsockname()[1]
    try:
        with socket.socket(socket.AF_INET6) as s6:
            s6.bind(("::1", port))
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            return free_port()
        # No IPv6 loopback here: sigil then listens on 127.0.0.1 only.
    return port


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    binary = os.path.abspath(sys.argv[1])
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.path.exists(nginx):
        fail("nginx is not installed (scripts/setup --proxy)")
    work = tempfile.mkdtemp(prefix="sigil-proxy-")
    os.chmod(work, 0o755)  # nginx workers (an unprivileged user) read nothing here but may need to traverse
    procs = []
    try:
        run(binary, nginx, work, procs)
    finally:
        for p in reversed(procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        shutil.rmtree(work, ignore_errors=True)


def run(binary, nginx, work, procs):
    for host in ("localhost", NAME):
        subprocess.run([binary, "tls", "self-signed", "--host", host, "--out-dir", work], check=True,
                       capture_output=True)
    dapp, ui = free_port(), free_port()
    while ui == dapp:
        ui = free_port()
    block = nginx_block()
    block = substitute(block, "203.0.113.5", PUBLIC)
    block = substitute(block, "/etc/letsencrypt/live/sigil.example.com/fullchain.pem", f"{work}/{NAME}.cert.pem")
    block = substitute(block, "/etc/letsencrypt/live/sigil.example.com/privkey.pem", f"{work}/{NAME}.key.pem")
    block = substitute(block, "/etc/sigil/localhost.cert.pem", f"{work}/localhost.cert.pem")
    block = substitute(block, "sigil.example.com", NAME)
    block = substitute(block, "198.51.100.0/24", "127.0.0.0/8")
    block = substitute(block, r"\b9715\b", str(dapp), regex=True)
    block = substitute(block, r"\b9716\b", str(ui), regex=True)
    temp = "".join(f"    {kind}_temp_path {work}/{kind};\n" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    conf = (f"daemon off;\nworker_processes 1;\nerror_log {work}/error.log warn;\npid {work}/nginx.pid;\n"
            f"events {{ worker_connections 128; }}\nhttp {{\n    access_log {work}/access.log;\n{temp}{block}}}\n")
    with open(f"{work}/nginx.conf", "w") as f:
        f.write(conf)
    test = subprocess.run([nginx, "-t", "-c", f"{work}/nginx.conf", "-p", work], capture_output=True, text=True)
    if test.returncode != 0:
        fail("nginx -t: " + test.stderr)

    serve = subprocess.Popen(
        [binary, "serve", "--dev", "--port", str(dapp), "--ui-port", str(ui),
         "--allowed-host", NAME, "--tls-cert", f"{work}/localhost.cert.pem", "--tls-key", f"{work}/localhost.key.pem"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    procs.append(serve)
    token = None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and token is None:
        line = serve.stdout.readline()
        if not line:
            fail("sigil serve exited early")
        m = re.match(r"Approval URL:\s+\S+#token=(\w+)", line)
        token = m.group(1) if m else None
    if token is None:
        fail("sigil serve printed no approval URL")
    proxy = subprocess.Popen([nginx, "-c", f"{work}/nginx.conf", "-p", work],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    procs.append(proxy)

    # The client resolves sigil.test to the proxy and trusts only the proxy's certificate.
    real = socket.getaddrinfo
    socket.getaddrinfo = lambda host, *a, **k: real(PUBLIC if host == NAME else host, *a, **k)
    context = ssl.create_default_context(cafile=f"{work}/{NAME}.cert.pem")
    ssl._create_default_https_context = lambda *a, **k: context
    gateway, page = f"https://{NAME}:{dapp}", f"https://{NAME}:{ui}"

    def get(url, headers=None, timeout=10):
        try:
            with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=timeout) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    deadline = time.monotonic() + 20
    while True:
        try:
            status, body = get(gateway + "/bridge.js")
            break
        except (urllib.error.URLError, ConnectionError):
            if time.monotonic() > deadline or proxy.poll() is not None:
                fail("nginx did not come up: " + (proxy.stderr.read() if proxy.poll() is not None else ""))
            time.sleep(0.05)
    with open(os.path.join(ROOT, "public", "bridge.js"), "rb") as f:
        if status != 200 or body != f.read():
            fail(f"bridge.js through the proxy: HTTP {status}")
    say(f"nginx from docs/deployment.md on {PUBLIC}:{dapp}/{ui} → sigil on 127.0.0.1 (TLS both hops)")
    say("bridge.js through the proxy: 200, byte for byte")

    status, body = get(page + "/healthz")
    if status != 200 or json.loads(body).get("status") != "ok":
        fail(f"/healthz through the proxy: HTTP {status} {body[:80]!r}")
    say("/healthz through the proxy: 200 ok")

    # An unknown server name gets no TLS handshake (ssl_reject_handshake on the default server).
    raw = ssl.create_default_context()
    raw.check_hostname, raw.verify_mode = False, ssl.CERT_NONE
    try:
        with socket.create_connection((PUBLIC, dapp), timeout=10) as s, raw.wrap_socket(s, server_hostname="other.test"):
            fail("the proxy completed a handshake for an unknown name")
    except ssl.SSLError as e:
        say(f"unknown server name: handshake refused ({e.reason})")

    # A forged Host (DNS rebinding through the proxy) never reaches sigil as an allowed name.
    status, _ = get(gateway + "/bridge.js", {"Host": f"evil.test:{dapp}"})
    if status == 200:
        fail("a forged Host header was served through the proxy")
    say(f"forged Host evil.test through the proxy: HTTP {status}")

    status, _ = get(page + "/api/state")
    if status != 403:
        fail(f"/api/state without the token through the proxy: HTTP {status}")
    status, _ = get(page + "/api/state", {"X-Sigil-Token": token})
    if status != 200:
        fail(f"/api/state with the token through the proxy: HTTP {status}")
    say("approval API through the proxy: 403 without the token, 200 with it")

    # A person approves on the page through the proxy: the browser's Origin is https://sigil.test:UI,
    # which sigil (serving TLS to the proxy) takes as its own origin: the approval POSTs pass.
    signed = sign_through_api.sign(gateway, f"{page}/#token={token}", 30)
    verify = subprocess.run([binary, "key", "verify", signed["signature"], signed["publicKey"], "--scheme",
                             signed["type"], "--message", signed["message"]], capture_output=True, text=True)
    if verify.returncode != 0:
        fail("the signature made through the proxy does not verify: " + verify.stdout)
    say(f"connect and sign approved through the proxy's approval port, signature ({signed['type']}) verified")
    # The event stream arrives promptly through the proxy: the hello, then the site's account push.
    request = urllib.request.Request(gateway + "/v1/events?session=proxycheck0001",
                                     headers={"Origin": sign_through_api.SITE, "Accept": "text/event-stream"})
    started = time.monotonic()
    with urllib.request.urlopen(request, timeout=10) as stream:
        line = b""
        while b"event: hello" not in line:
            line = stream.readline()
            if not line or time.monotonic() - started > 5:
                fail("the event stream's hello did not arrive through the proxy within 5 s")
        # A push after the hello must arrive too, not wait for a buffer to fill.
        dapp_headers = {"Origin": sign_through_api.SITE, "Content-Type": "application/json",
                        "X-Sigil-Session": "proxycheck0001"}
        body = json.dumps({"id": "e1", "message": "pub(accounts.subscribe)", "request": None}).encode()
        with urllib.request.urlopen(urllib.request.Request(gateway + "/v1/request", data=body,
                                                           headers=dapp_headers), timeout=10) as r:
            r.read()
        pushed = time.monotonic()
        while b'"subscription"' not in line:
            line = stream.readline()
            if not line or time.monotonic() - pushed > 5:
                fail("an account push did not arrive on the event stream through the proxy within 5 s")
    say(f"event stream through the proxy: hello after {pushed - started:.2f} s, a push {time.monotonic() - pushed:.2f} s "
        "after its request")

    say("ok")


if __name__ == "__main__":
    main()
