"""End-to-end test in a real browser: Debian's chromium driven by Playwright.

A test dapp page served from another origin loads /bridge.js and runs the @polkadot/extension-dapp
flow against `sigil serve --dev`; a person's part is played by clicking the approval page's buttons.
Signatures are verified with schnorrkel (py-sr25519-bindings) over bytes computed here, independently
of Sigil, and an ed25519 one in the page by the browser's own WebCrypto. RFC-0078: with approved
Polkadot metadata, a mode-0 `withSignedTransaction` payload comes back with mode 1 and the metadata
hash `sigil metadata hash` prints; a dapp page with the vendored polkadot-js bundles
(../shared/vendor/polkadot-js, polkadot_vendor.py) decodes it with @polkadot/types'
`registry.createType('Extrinsic', …)` and verifies its signature with @polkadot/util-crypto's
`signatureVerify` over the `ExtrinsicPayload` with Some(hash). Without the bundles that part says NOT
RUN (FAILED with SIGILTEST_REQUIRE_VENDOR=1). Run by scripts/test.d/70-e2e-browser.sh.
"""
import argparse
import os
import pathlib
import json
import ssl
import sys
import time
import threading
import urllib.error
import urllib.request
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

DEBUG = False
import sr25519
from playwright.sync_api import sync_playwright

from polkadot_vendor import bundle, not_run, script_tags, vendor_ready
from sigil_process import SigilProcess

ROOT = pathlib.Path(__file__).resolve().parents[2]
ALICE_PUB = bytes.fromhex("d43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d")
BOB_PUB = bytes.fromhex("8eaf04151687736326c9fea17e25fc5287613693c912909cb226aa4794f26a48")
ALICE = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"
POLKADOT_GENESIS = "91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3"
POLKADOT_EXTENSIONS = ["AuthorizeCall", "CheckNonZeroSender", "CheckSpecVersion", "CheckTxVersion", "CheckGenesis",
                       "CheckMortality", "CheckNonce", "CheckWeight", "ChargeTransactionPayment",
                       "PrevalidateAttests", "CheckMetadataHash"]


def compact(n):
    if n < 1 << 6:
        return bytes([n << 2])
    if n < 1 << 14:
        return ((n << 2) | 1).to_bytes(2, "little")
    if n < 1 << 30:
        return ((n << 2) | 2).to_bytes(4, "little")
    b = n.to_bytes((n.bit_length() + 7) // 8, "little")
    return bytes([((len(b) - 4) << 2) | 3]) + b


def polkadot_payload_bytes(method, era, nonce, tip, spec, tx, genesis, block_hash, metadata_hash=None):
    """docs/reference/polkadot-extension.md §2.2 for the Polkadot relay extension list: mode 0 and
    None, or mode 1 and Some(metadata_hash) (CheckMetadataHash, docs/reference/metadata-hash.md §1)."""
    mode, signed_hash = (b"\x00", b"\x00") if metadata_hash is None else (b"\x01", b"\x01" + metadata_hash)
    extra = era + compact(nonce) + compact(tip) + mode
    additional = spec.to_bytes(4, "little") + tx.to_bytes(4, "little") + genesis + block_hash + signed_hash
    return method + extra + additional


def sigil_metadata_hash(binary, path, decimals, symbol):
    """What `sigil metadata hash` prints for the file (spec name, version and prefix from the metadata)."""
    import subprocess
    out = subprocess.run([binary, "metadata", "hash", str(path), "--decimals", str(decimals),
                          "--token-symbol", symbol, "--json"], capture_output=True, text=True, check=True).stdout
    return bytes.fromhex(json.loads(out)["metadataHash"][2:])


# Runs in a dapp page that loaded the vendored polkadot-js bundles (THIRD_HTML): what a polkadot-js dapp
# does with what Sigil returned. A TypeRegistry gets the chain's metadata (the file the dapp shared with
# Sigil through metadata.provide, fetched from the dapp's own server, byte for byte
# ../shared/fixtures/metadata/polkadot-v15.scale), `registry.createType('Extrinsic', …)` decodes the
# signed transaction, and `registry.createType('ExtrinsicPayload', …)` rebuilds what the chain checks
# the signature against: the extrinsic's own call and extra (era, nonce, tip, CheckMetadataHash mode),
# then the additional-signed data (spec, transaction version, genesis, block hash from the site's
# payload, and CheckMetadataHash's Option<hash>). @polkadot/util-crypto's signatureVerify checks the
# signature over it with Some(hash), and over the same with None (which must fail).
DECODE_AND_VERIFY_JS = """async ([tx, payload, hash]) => {
  const { TypeRegistry, Metadata } = polkadotTypes;
  const { blake2AsU8a, cryptoWaitReady, signatureVerify } = polkadotUtilCrypto;
  const { hexToU8a } = polkadotUtil;
  await cryptoWaitReady();
  const registry = new TypeRegistry();
  registry.setMetadata(new Metadata(registry, new Uint8Array(await (await fetch('/metadata')).arrayBuffer())));
  const extrinsic = registry.createType('Extrinsic', tx);
  const signer = extrinsic.signer, multiSignature = extrinsic.inner.signature.multiSignature;
  const r = {
    reencodes: extrinsic.toHex() === tx, encodedLength: extrinsic.encodedLength, bytes: hexToU8a(tx).length,
    isSigned: extrinsic.isSigned, version: extrinsic.version, addressKind: signer.type,
    signer: signer.type === 'Id' ? signer.value.toHex() : null, signatureKind: multiSignature.type,
    era: extrinsic.era.toHex(), nonce: extrinsic.nonce.toNumber(), tip: extrinsic.tip.toBigInt().toString(),
    mode: extrinsic.mode.toNumber(), call: extrinsic.method.toHex(),
    callName: extrinsic.method.section + '.' + extrinsic.method.method,
    signedExtensions: registry.signedExtensions,
  };
  const signed = metadataHash => {
    const data = registry.createType('ExtrinsicPayload', {
      method: extrinsic.method.toHex(), era: extrinsic.era.toHex(), nonce: extrinsic.nonce.toNumber(),
      tip: extrinsic.tip.toBigInt(), mode: extrinsic.mode.toNumber(), specVersion: payload.specVersion,
      transactionVersion: payload.transactionVersion, genesisHash: payload.genesisHash,
      blockHash: payload.blockHash, metadataHash,
    }, { version: extrinsic.type });
    const u8a = data.toU8a({ method: true });
    return { u8a: u8a.length > 256 ? blake2AsU8a(u8a) : u8a, hash: data.metadataHash.isSome ? data.metadataHash.unwrap().toHex() : null };
  };
  const withHash = signed(hash), withoutHash = signed(null);
  r.signedHash = withHash.hash; r.unsignedHash = withoutHash.hash;
  const verify = data => signatureVerify(data.u8a, extrinsic.signature.toU8a(), signer.value.toU8a());
  const good = verify(withHash), bad = verify(withoutHash);
  r.verifiesWithHash = good.isValid; r.crypto = good.crypto; r.verifiesWithoutHash = bad.isValid;
  return r;
}"""


def self_check_encoder():
    # Vector A of docs/reference/polkadot-extension.md §5.3 (computed against polkadot-js's encoder).
    a = polkadot_payload_bytes(bytes.fromhex("00001468656c6c6f"), bytes.fromhex("b503"), 7, 0, 1007001, 26,
                               bytes.fromhex(POLKADOT_GENESIS), b"\x11" * 32)
    expected = ("00001468656c6c6fb5031c0000995d0f001a000000" + POLKADOT_GENESIS + "11" * 32 + "00")
    assert a.hex() == expected, a.hex()


DAPP_HTML = """<!doctype html><html><head><meta charset="utf-8"><title>test dapp</title>
<script src="{bridge}"></script></head><body><h1>test dapp</h1>
<script>window.pushes = []; window.results = {{}};</script></body></html>"""
# The same dapp with the vendored polkadot-js bundles (polkadot_vendor.py) before the bridge.
THIRD_HTML = DAPP_HTML.replace("<script src=", "{scripts}\n<script src=", 1)


def serve_dapp(bridge_url, page=DAPP_HTML, tls=None, vendor=False, files=None):
    """Serves `page` (with the bridge URL filled in) on a free port; over https when `tls` is a
    (certificate, key) pair for localhost. With `vendor`, also the vendored polkadot-js bundles under
    /vendor/ (polkadot_vendor.py; the page's `{scripts}` loads them); `files` maps further paths to
    (bytes, content type). Returns (server, URL)."""
    html = page.format(bridge=bridge_url, scripts=script_tags() if vendor else "").encode()
    files = dict(files or {})

    class Handler(SimpleHTTPRequestHandler):
        def do_GET(self):
            if vendor and self.path.startswith("/vendor/"):
                body, kind = bundle(self.path[len("/vendor/"):]), "text/javascript"
            else:
                body, kind = files.get(self.path, (html, "text/html; charset=utf-8"))
            if body is None:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    if tls is not None:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        context.load_cert_chain(*tls)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    if tls is not None:
        return server, f"https://localhost:{server.server_address[1]}/"
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def http(method, url, headers=None, body=None, timeout=10):
    req = urllib.request.Request(url, method=method, headers=headers or {}, data=body)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def check(cond, what):
    if not cond:
        raise AssertionError(what)
    print("  ok:", what)


def poll(page, js, arg=None, timeout=15.0):
    """Evaluates `js` until it is truthy (Playwright's own waits stall on background tabs here)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = page.evaluate(js, arg)
        if DEBUG: print("   poll", js[:40], value, flush=True)
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for: {js}")


def approval_article(ui, kind):
    """The first undecided request of `kind` (a decided one keeps its disabled buttons until the
    page refreshes), with the approval page brought to the front as the person looks at it to decide
    (a click in a background tab waits about 2 s for an animation frame Chromium does not paint)."""
    selector = f'article[data-kind="{kind}"]:has(button.approve:not([disabled]))'
    poll(ui, "s => document.querySelector(s) !== null", selector)
    ui.bring_to_front()
    return ui.locator(selector).first


def check_origins_command(binary):
    """`sigil origins list|revoke` on the data directory of a running `sigil serve`."""
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as data:
        sigil = SigilProcess(binary, "--auto-approve", "--data-dir", data)
        try:
            check(any("WARNING: --auto-approve is on" in line for line in sigil.lines), "--auto-approve says so loudly")
            site = "https://cli.example"
            hdrs = {"Origin": site, "Content-Type": "application/json", "X-Sigil-Session": "clisession01"}
            send = lambda i, m, r: json.loads(http("POST", sigil.gateway + "/v1/request", hdrs,
                                                   json.dumps({"id": i, "message": m, "request": r}).encode())[1])
            check(send("1", "pub(authorize.tab)", {"origin": "CLI"})["response"]["result"] is True,
                  "auto-approve connects a site at once")
            send("2", "pub(accounts.subscribe)", None)
            listed = subprocess.run([binary, "origins", "list", "--json", "--data-dir", data],
                                    capture_output=True, text=True, check=True).stdout
            check(json.loads(listed)[0]["origin"] == site, "sigil origins list shows the connected site")
            subprocess.run([binary, "origins", "revoke", site, "--data-dir", data], check=True, capture_output=True)
            deadline = time.monotonic() + 10
            last = None
            while time.monotonic() < deadline:
                status, body = http("GET", sigil.gateway + "/v1/poll?session=clisession01", {"Origin": site})
                events = json.loads(body)["events"]
                last = events[-1]["data"] if events else None
                if last and last.get("subscription") == []:
                    break
                time.sleep(0.2)
            check(last == {"id": "2", "subscription": []},
                  "sigil origins revoke reaches the running gateway: the open subscription gets []")
        finally:
            sigil.stop()
    check_removed_account_leaves_sites(binary)


def check_removed_account_leaves_sites(binary):
    """`sigil accounts remove` of a polkadot-js account takes it from every connected site (the
    sites hold it by its `0x` account id, not its SS58 address), and the running gateway's tabs hear
    the new list. `--dev --data-dir` keeps the dev accounts as files in that directory."""
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as data:
        sigil = SigilProcess(binary, "--auto-approve", "--data-dir", data)
        try:
            site = "https://remove.example"
            hdrs = {"Origin": site, "Content-Type": "application/json", "X-Sigil-Session": "removesession1"}
            send = lambda i, m, r: json.loads(http("POST", sigil.gateway + "/v1/request", hdrs,
                                                   json.dumps({"id": i, "message": m, "request": r}).encode())[1])
            granted = send("1", "pub(authorize.tab)", {"origin": "Remove"})["response"]["authorizedAccounts"]
            check(len(granted) >= 2, "auto-approve grants the dev accounts")
            send("2", "pub(accounts.subscribe)", None)
            gone = granted[1]
            origins = lambda: json.loads(subprocess.run([binary, "origins", "list", "--json", "--data-dir", data],
                                                        capture_output=True, text=True, check=True).stdout)
            before = origins()[0]["accounts"]
            subprocess.run([binary, "accounts", "remove", gone, "--yes", "--data-dir", data],
                           check=True, capture_output=True)
            after = origins()[0]["accounts"]
            check(len(after) == len(before) - 1 and set(after) < set(before),
                  "sigil accounts remove takes the account from the connected site")
            deadline = time.monotonic() + 10
            heard = None
            while time.monotonic() < deadline:
                _, body = http("GET", sigil.gateway + "/v1/poll?session=removesession1", {"Origin": site})
                events = json.loads(body)["events"]
                last = events[-1]["data"] if events else {}
                if isinstance(last.get("subscription"), list) and len(last["subscription"]) == len(granted) - 1:
                    heard = [a["address"] for a in last["subscription"]]
                    break
                time.sleep(0.2)
            check(heard is not None and gone not in heard and granted[0] in heard,
                  "the running gateway's tab hears the list without the removed account")
        finally:
            sigil.stop()


def check_terminal_approver(binary):
    """`sigil serve --approve terminal`: the same questions on the terminal, answered y/n."""
    sigil = SigilProcess(binary, "--approve", "terminal")
    try:
        site = "https://terminal.example"
        hdrs = {"Origin": site, "Content-Type": "application/json", "X-Sigil-Session": "termsession1"}
        send = lambda i, m, r: http("POST", sigil.gateway + "/v1/request", hdrs,
                                    json.dumps({"id": i, "message": m, "request": r}).encode())[0]
        events = lambda: json.loads(http("GET", sigil.gateway + "/v1/poll?session=termsession1", {"Origin": site})[1])["events"]
        check(send("1", "pub(authorize.tab)", {"origin": "Terminal Dapp"}) == 202, "authorization waits for the terminal")
        sigil.wait_for_output("== Connect https://terminal.example?")
        sigil.wait_for_output("calls itself: Terminal Dapp")
        sigil.answer("1")
        deadline = time.monotonic() + 10
        while events()[-1]["data"].get("id") != "1" and time.monotonic() < deadline:
            time.sleep(0.05)
        check(events()[-1]["data"].get("response", {}).get("authorizedAccounts") == [ALICE],
              "answering '1' grants account 1 only")
        send("2", "pub(bytes.sign)", {"address": ALICE, "data": "from the terminal", "type": "bytes"})
        sigil.wait_for_output("message: from the terminal")
        sigil.answer("n")
        deadline = time.monotonic() + 10
        while events()[-1]["data"].get("id") != "2" and time.monotonic() < deadline:
            time.sleep(0.1)
        check(events()[-1]["data"] == {"id": "2", "error": "Cancelled"}, "answering 'n' rejects: Cancelled")
    finally:
        sigil.stop()


def check_keystore_accounts(binary):
    """Without --dev: the keystore's accounts, unlocked at start with --password-file; approvals
    through the approval API exactly as the page sends them; an ed25519 message signature."""
    import os
    import subprocess
    import tempfile
    from nacl.signing import VerifyKey
    with tempfile.TemporaryDirectory() as data:
        pw = os.path.join(data, "pw")
        with open(pw, "w") as f:
            f.write("correct horse battery\n")
        os.chmod(pw, 0o600)
        store = os.path.join(data, "home")
        subprocess.run([binary, "accounts", "add", "-", "--name", "Ed", "--scheme", "ed25519", "--data-dir", store,
                        "--password-file", pw], input="//Alice\n", text=True, check=True, capture_output=True)
        sigil = SigilProcess(binary, "--data-dir", store, "--password-file", pw, dev=False)
        try:
            check(any("Unlocked 1 of 1 account(s)." in l for l in sigil.lines), "serve unlocks the keystore account")
            site = "https://keystore.example"
            hdrs = {"Origin": site, "Content-Type": "application/json", "X-Sigil-Session": "kssession01"}
            send = lambda i, m, r: json.loads(http("POST", sigil.gateway + "/v1/request", hdrs,
                                                   json.dumps({"id": i, "message": m, "request": r}).encode())[1])
            ui_hdrs = {"Origin": sigil.ui, "Content-Type": "application/json", "X-Sigil-Token": sigil.token,
                       "Sec-Fetch-Site": "same-origin"}
            state = lambda: json.loads(http("GET", sigil.ui + "/api/state", {"X-Sigil-Token": sigil.token})[1])
            events = lambda: json.loads(http("GET", sigil.gateway + "/v1/poll?session=kssession01", {"Origin": site})[1])["events"]
            send("1", "pub(authorize.tab)", {"origin": "KS"})
            st = state()
            account = st["accounts"][0]
            check(account["type"] == "ed25519" and account["name"] == "Ed", "the keystore account is offered")
            http("POST", sigil.ui + "/api/approve", ui_hdrs,
                 json.dumps({"id": st["pending"][0]["id"], "accounts": [account["key"]]}).encode())
            send("2", "pub(bytes.sign)", {"address": account["address"], "data": "0x68656c6c6f", "type": "bytes"})
            http("POST", sigil.ui + "/api/approve", ui_hdrs, json.dumps({"id": state()["pending"][0]["id"]}).encode())
            reply = events()[-1]["data"]
            signature = bytes.fromhex(reply["response"]["signature"][2:])
            VerifyKey(bytes.fromhex(account["key"][2:])).verify(b"<Bytes>hello</Bytes>", signature)
            check(len(signature) == 64, "ed25519 keystore signature (no prefix) verifies over <Bytes>hello</Bytes>")
        finally:
            sigil.stop()


# Stands in for the userscript manager: GM_xmlhttpRequest goes to the test server's /__gm (same
# origin, so the page's CSP allows it), which performs the request like the extension would.
FAKE_GM = """
window.GM_xmlhttpRequest = (o) => {
  fetch('/__gm', {method: 'POST', body: JSON.stringify({method: o.method, url: o.url, headers: o.headers, data: o.data})})
    .then(r => r.json()).then(r => r.error ? o.onerror() : o.onload(r), () => o.onerror());
};
window.GM_addElement = (tag, attrs) => {
  const e = document.createElement(tag);
  e.textContent = attrs.textContent;
  (document.head || document.documentElement).appendChild(e);
  return e;
};
"""

CSP_HTML = b"""<!doctype html><html><head><meta charset="utf-8"><title>csp dapp</title></head>
<body><h1>strict CSP dapp</h1><script>window.found = !!(window.injectedWeb3 && window.injectedWeb3.sigil);</script></body></html>"""


def serve_csp_dapp(gateway):
    class Handler(SimpleHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            # No connection to 127.0.0.1:<gateway> and no foreign scripts: the userscript must relay.
            self.send_header("Content-Security-Policy", "default-src 'self'; script-src 'self' 'unsafe-inline'")
            self.send_header("Content-Length", str(len(CSP_HTML)))
            self.end_headers()
            self.wfile.write(CSP_HTML)

        def do_POST(self):
            req = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            if not req["url"].startswith(gateway + "/"):
                self.send_error(403)
                return
            data = req.get("data")
            try:
                status, body = http(req["method"], req["url"], req.get("headers") or {},
                                    data.encode() if data is not None else None, timeout=40)
                out = json.dumps({"status": status, "responseText": body.decode()}).encode()
            except OSError:  # the gateway went away (end of test): like GM's onerror
                out = b'{"error": true}'
            
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(out)))
            self.end_headers()
            self.wfile.write(out)

        def log_message(self, *args):
            pass

    class Server(ThreadingHTTPServer):
        def handle_error(self, request, client_address):
            pass  # the browser closed while a relayed long-poll was held (end of test)

    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def check_userscript(binary, chromium):
    """The userscript on a site whose CSP forbids 127.0.0.1: injected at document start, it relays
    the bridge's messages (postMessage transport) to the gateway with its relay token."""
    sigil = SigilProcess(binary, "--auto-approve")
    server, url = serve_csp_dapp(sigil.gateway)
    try:
        status, script = http("GET", f"{sigil.ui}/sigil.user.js?token={sigil.token}")
        check(status == 200 and b"// ==UserScript==" in script and b"@run-at       document-start" in script,
              "the approval port serves the userscript")
        check(sigil.gateway.encode() in script and b"__SIGIL_" not in script,
              "the userscript carries this gateway's URL, relay token and bridge")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            context = browser.new_context()
            context.add_init_script(FAKE_GM + "\n" + script.decode())
            page = context.new_page()
            page.goto(url)
            check(page.evaluate("window.found") is True, "the wallet exists before the page's own scripts run")
            blocked = page.evaluate(f"fetch('{sigil.gateway}/bridge.js').then(() => 'reached', () => 'blocked')")
            check(blocked == "blocked", "the page's CSP really forbids reaching the gateway directly")
            accounts = page.evaluate("""window.injectedWeb3.sigil.enable('CSP dapp')
                .then(i => i.accounts.get()).then(a => a.map(x => x.address), e => 'error: ' + e.message)""")
            check(isinstance(accounts, list) and ALICE in accounts, "enable and accounts.get work through the relay")
            site = url.rstrip("/")
            listed = json.loads(http("GET", sigil.ui + "/api/state", {"X-Sigil-Token": sigil.token})[1])["sites"]
            check([s["source"] for s in listed] == [site], "the relay reports the tab's own origin as the site")
            page.evaluate("() => { window.pushes = []; window.injectedWeb3.sigil.enable('CSP dapp').then(i => "
                          "i.accounts.subscribe(l => window.pushes.push(l))) }")
            poll(page, "window.pushes.length >= 1")
            check(True, "subscription pushes arrive through the relay's long-poll")
            signed = page.evaluate("""window.injectedWeb3.sigil.enable('CSP dapp').then(i => i.signer.signRaw(
                {address: '%s', data: 'relayed', type: 'bytes'}))""" % ALICE)
            check(sr25519.verify(bytes.fromhex(signed["signature"][2:]), b"<Bytes>relayed</Bytes>", ALICE_PUB),
                  "a message signed through the relay verifies")
            browser.close()
    finally:
        server.shutdown()
        sigil.stop()


def check_metadata_hash_in_page(context, ui, sigil, url, payload, metadata_hash):
    """A site granted //Alice's ed25519 account signs a mode-0 `withSignedTransaction` Polkadot payload;
    the page decodes the signed transaction with @polkadot/types (the chain's metadata in a
    TypeRegistry) and verifies its signature with @polkadot/util-crypto's signatureVerify over the
    data with Some(metadata_hash): mode 1 and the hash `sigil metadata hash` printed (and Sigil's
    prompt showed) are what was signed. Without the vendored bundles only the decode is NOT RUN."""
    state = json.loads(http("GET", sigil.ui + "/api/state", {"X-Sigil-Token": sigil.token})[1])
    ed = next(a for a in state["accounts"] if a["type"] == "ed25519")
    page = context.new_page()
    page.goto(url)
    page.evaluate("() => { window.enabling = window.injectedWeb3.sigil.enable('Hash').then(i => { window.ext = i; return 'ok' }) }")
    auth = approval_article(ui, "authorize")
    boxes = auth.locator('input[type="checkbox"]')
    for i in range(boxes.count()):
        if boxes.nth(i).get_attribute("value") == ed["key"]:
            boxes.nth(i).check()
        else:
            boxes.nth(i).uncheck()
    auth.get_by_role("button", name="Approve").click()
    check(page.evaluate("window.enabling") == "ok", "a third site is connected with //Alice's ed25519 account")
    request = dict(payload, address=ed["address"], nonce="0x00000003")
    page.evaluate("p => { window.signing = window.ext.signer.signPayload(p) }", request)
    tx = approval_article(ui, "extrinsic")
    prompt = tx.text_content()
    check("added by Sigil" in prompt and "0x" + metadata_hash.hex() in prompt,
          "its prompt says Sigil adds the metadata hash, the one `sigil metadata hash` prints")
    tx.get_by_role("button", name="Approve").click()
    result = page.evaluate("window.signing")
    check(result["signedTransaction"].startswith("0x"), "signPayload returns the signed transaction")
    if not page.evaluate("typeof window.polkadotTypes === 'object' && typeof window.polkadotUtilCrypto === 'object'"):
        not_run("e2e browser: the in-page decode with @polkadot/types and signatureVerify",
                "the page has no vendored polkadot-js bundles")
        page.close()
        return False
    decoded = page.evaluate(DECODE_AND_VERIFY_JS, [result["signedTransaction"], request, "0x" + metadata_hash.hex()])
    check(decoded["reencodes"] and decoded["encodedLength"] == decoded["bytes"],
          "registry.createType('Extrinsic') decodes every byte of the signed transaction and encodes it back the same")
    check(decoded["isSigned"] and decoded["version"] == 0x84 and decoded["addressKind"] == "Id"
          and decoded["signer"] == ed["key"] and decoded["signatureKind"] == "Ed25519",
          "@polkadot/types reads it: v4 signed, MultiAddress::Id of the account, MultiSignature::Ed25519")
    check(decoded["era"] == payload["era"] and decoded["nonce"] == 3 and decoded["tip"] == "0"
          and decoded["call"] == payload["method"] and decoded["callName"] == "balances.transferKeepAlive",
          "era, nonce, tip and call (balances.transferKeepAlive) are the site's")
    check("CheckMetadataHash" in decoded["signedExtensions"] and decoded["mode"] == 1,
          "the signed transaction's extra has CheckMetadataHash mode 1 (the site sent mode 0)")
    check(decoded["signedHash"] == "0x" + metadata_hash.hex() and decoded["unsignedHash"] is None,
          "ExtrinsicPayload carries Some(sigil metadata hash) in the additional-signed data")
    check(decoded["verifiesWithHash"] and decoded["crypto"] == "ed25519" and not decoded["verifiesWithoutHash"],
          "signatureVerify (@polkadot/util-crypto) in the page verifies the ed25519 signature over the payload "
          "with Some(sigil metadata hash), not with None")
    page.close()
    return True


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def check_history_banner(binary, chromium):
    """A journal that does not verify shows a red banner on the approval page, naming the entry."""
    import shutil
    import sqlite3
    import tempfile
    data = tempfile.mkdtemp(prefix="sigil-e2e-journal.")
    try:
        sigil = SigilProcess(binary, "--auto-approve", "--client", "e2e", "--data-dir", data)
        try:
            token = sigil.client_tokens["e2e"]
            for i, (message, request) in enumerate([("pub(authorize.tab)", {"origin": "banner"}),
                                                     ("pub(bytes.sign)", {"address": ALICE, "data": "one"}),
                                                     ("pub(bytes.sign)", {"address": ALICE, "data": "two"})]):
                status, _ = http("POST", sigil.gateway + "/v1/request", {
                    "Authorization": "Bearer " + token, "X-Sigil-Session": "bannersession1",
                    "Content-Type": "application/json"},
                    json.dumps({"id": f"b{i}", "message": message, "request": request}).encode())
                check(status == 200, f"{message} answered")
        finally:
            sigil.stop()
        db = sqlite3.connect(data + "/state.sqlite")
        db.execute("DROP TRIGGER journal_entry_append_only_update")
        db.execute("UPDATE journal_entry SET detail = 'rewritten' WHERE seq = 3")
        db.commit()
        db.close()
        sigil = SigilProcess(binary, "--data-dir", data)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
                ui = browser.new_page()
                ui.goto(sigil.approval_url)
                poll(ui, "!document.getElementById('journal-banner').hidden")
                banner = ui.locator("#journal-banner").inner_text()
                check("does NOT verify" in banner and "modified at entry 3" in banner
                      and ui.locator("#journal-badge").is_hidden(),
                      "a journal that does not verify shows a red banner naming the entry")
                browser.close()
        finally:
            sigil.stop()
    finally:
        shutil.rmtree(data, ignore_errors=True)


def check_approval_stream_reopens(binary, chromium):
    """The approval page opens a new event stream when one is refused: EventSource gives up for good on
    an HTTP error (the 503 of a Sigil that is shutting down), so the page must, or it stays stale."""
    ports = ["--port", str(free_port()), "--ui-port", str(free_port())]
    sigil = SigilProcess(binary, *ports, fixed_ports=True)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            ui = browser.new_page()
            streams = []

            def refuse_first(route):
                streams.append(route.request.url)
                if len(streams) == 1:
                    route.fulfill(status=503, body="")
                else:
                    route.continue_()
            ui.route("**/api/events*", refuse_first)
            ui.goto(sigil.approval_url)
            poll(ui, "document.getElementById('status').textContent === 'Live'")
            deadline = time.monotonic() + 15
            while len(streams) < 2 and time.monotonic() < deadline:
                ui.evaluate("0")  # route handlers run while Playwright is called
                time.sleep(0.05)
            check(len(streams) == 2, "the approval page opens a new event stream after a 503")
            site = "https://stream.example"
            hdrs = {"Origin": site, "Content-Type": "application/json", "X-Sigil-Session": "streamsession1"}
            http("POST", sigil.gateway + "/v1/request", hdrs,
                 json.dumps({"id": "1", "message": "pub(authorize.tab)", "request": {"origin": "Stream"}}).encode())
            shown = poll(ui, "document.querySelector('article[data-kind=\"authorize\"]') !== null")
            check(shown, "a request made afterwards reaches the page live by the new stream")
            # A restarted Sigil has a new approval token: the page says its link is dead, not "Reconnecting" forever.
            sigil.stop()
            sigil = SigilProcess(binary, *ports, fixed_ports=True)
            dead = poll(ui, "document.getElementById('status').textContent.includes('no longer valid')", timeout=30)
            check(dead, "after a restart the old approval link says it is no longer valid")
            browser.close()
    finally:
        sigil.stop()


def check_late_stream(binary, chromium):
    """A request the new gateway run took is not "lost" when the tab's stream learns of the restart only
    after it (the 202 names the run that holds it): the person approves it and the dapp gets the answer."""
    ports = ["--port", str(free_port()), "--ui-port", str(free_port())]
    sigil = SigilProcess(binary, *ports, "--auto-approve", fixed_ports=True)
    server, url = serve_dapp(sigil.bridge_url)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            page = browser.new_page()
            page.goto(url)
            check(page.evaluate("window.injectedWeb3.sigil.enable('L').then(i => { window.ext = i; return 'ok' })") == "ok",
                  "late stream: connected before the restart")
            gate = {"closed": True, "passed": 0}

            def stream_gate(route):  # the tab's stream stays away from the new run until the gate opens
                if gate["closed"]:
                    route.fulfill(status=503, body="")
                else:
                    gate["passed"] += 1
                    route.continue_()
            page.route("**/v1/events*", stream_gate)
            sigil.stop()
            sigil = SigilProcess(binary, *ports, fixed_ports=True)  # a person decides now
            page.evaluate("""() => { window.late = null; window.injectedWeb3.sigil.enable('L again')
                .then(() => { window.late = 'enabled' }, e => { window.late = e.message }) }""")
            state = lambda: json.loads(http("GET", sigil.ui + "/api/state", {"X-Sigil-Token": sigil.token})[1])
            deadline = time.monotonic() + 15
            while not state()["pending"] and time.monotonic() < deadline:
                time.sleep(0.05)
            pending = state()["pending"]
            check(len(pending) == 1 and pending[0]["kind"] == "authorize", "late stream: the new run holds the request")
            gate["closed"] = False
            deadline = time.monotonic() + 40
            while gate["passed"] == 0 and time.monotonic() < deadline:
                page.evaluate("0")  # route handlers run while Playwright is called
                time.sleep(0.05)
            check(gate["passed"] > 0, "late stream: the stream reaches the new run after the request")
            ui_hdrs = {"Origin": sigil.ui, "Content-Type": "application/json", "X-Sigil-Token": sigil.token,
                       "Sec-Fetch-Site": "same-origin"}
            keys = [a["key"] for a in state()["accounts"]][:1]
            http("POST", sigil.ui + "/api/approve", ui_hdrs, json.dumps({"id": pending[0]["id"], "accounts": keys}).encode())
            late = poll(page, "window.late", timeout=30)
            check(late == "enabled", f"late stream: the approved request is answered, not called lost (got {late!r})")
            browser.close()
    finally:
        server.shutdown()
        sigil.stop()


def check_restart(binary, chromium):
    """The bridge copes with the gateway going down and coming back (a new process on the same port)."""
    port, ui_port = free_port(), free_port()
    ports = ["--port", str(port), "--ui-port", str(ui_port)]
    sigil = SigilProcess(binary, *ports, "--auto-approve", fixed_ports=True)
    server, url = serve_dapp(sigil.bridge_url)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            page = browser.new_page()
            page.goto(url)
            check(page.evaluate("window.injectedWeb3.sigil.enable('R').then(i => { window.ext = i; return 'ok' })") == "ok",
                  "connected before the restart")
            sigil.stop()
            down = page.evaluate("window.ext.accounts.get().then(() => 'listed', e => e.message)")
            check("Sigil is not reachable" in down, "gateway down: a clear error, not a hang")
            sigil = SigilProcess(binary, *ports, fixed_ports=True)  # a person decides now
            # The outcome is kept as a plain value: polling a promise would wait for it without a deadline.
            page.evaluate("""() => { window.lost = null; window.injectedWeb3.sigil.enable('R again')
                .then(() => { window.lost = 'enabled' }, e => { window.lost = e.message }) }""")
            # Wait until the enable is really pending on this gateway run (its approval state shows it).
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                pending = json.loads(http("GET", sigil.ui + "/api/state", {"X-Sigil-Token": sigil.token})[1])["pending"]
                if any(p["kind"] == "authorize" for p in pending):
                    break
                time.sleep(0.05)
            check(any(p["kind"] == "authorize" for p in pending), "the enable waits for a person on the new run")
            # The event stream's next connection is answered 503, as a gateway that is shutting down
            # answers (HTTPServer): EventSource gives up for good on an HTTP error, so the bridge must
            # open a new stream itself, or the tab never hears of the restart (it hung once that way).
            refused = []

            def refuse_once(route):
                if refused:
                    route.continue_()
                else:
                    refused.append(route.request.url)
                    route.fulfill(status=503, body="")
            page.route("**/v1/events*", refuse_once)
            sigil.stop()
            sigil = SigilProcess(binary, *ports, "--auto-approve", fixed_ports=True)
            lost = poll(page, "window.lost", timeout=30)
            check(refused and lost == "Sigil restarted; the request was lost. Please try again.",
                  f"a request waiting across a restart fails clearly instead of hanging, also when its stream's "
                  f"reconnect was refused with a 503 (got {lost!r})")
            again = page.evaluate(
                "window.injectedWeb3.sigil.enable('R').then(i => i.accounts.get()).then(a => a.map(x => x.type).sort())")
            # --dev: //Alice … //Ferdie sr25519 plus //Alice ed25519 and ecdsa (Keystore DevAccounts).
            check(again == ["ecdsa", "ed25519"] + ["sr25519"] * 6,
                  f"after the restart the same tab connects again and lists every dev account (got {again!r})")
            browser.close()
    finally:
        server.shutdown()
        sigil.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sigil", required=True)
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args()
    self_check_encoder()
    # The third site decodes Sigil's signed transaction with the vendored polkadot-js (CI requires them).
    vendor = vendor_ready("e2e browser: the in-page decode with @polkadot/types and signatureVerify")
    raw_metadata = (ROOT / "Tests/SigilTesting/Resources/polkadot-v15.scale").read_bytes()

    sigil = SigilProcess(args.sigil)
    dapp_server, dapp_url = serve_dapp(sigil.bridge_url)
    other_server, other_url = serve_dapp(sigil.bridge_url + "?as=polkadot-js")
    third_server, third_url = serve_dapp(sigil.bridge_url, THIRD_HTML, vendor=vendor,
                                         files={"/metadata": (raw_metadata, "application/octet-stream")})
    dapp_origin = dapp_url.rstrip("/")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
            context = browser.new_context()
            context.set_default_timeout(15000)
            dapp = context.new_page()
            ui = context.new_page()
            dapp.goto(dapp_url)
            check(dapp.evaluate("typeof window.injectedWeb3.sigil.enable === 'function' && "
                                "typeof window.injectedWeb3.sigil.version === 'string'"),
                  "bridge defines injectedWeb3.sigil = {enable, version}")
            check(dapp.evaluate("window.injectedWeb3['polkadot-js'] === undefined"),
                  "no polkadot-js alias unless asked for")
            ui.goto(sigil.approval_url)
            poll(ui, "document.getElementById('status').textContent === 'Live'")

            # enable -> approve on the approval page (only Alice) -> accounts
            # (assignments are wrapped in a block: Playwright would otherwise await the promise)
            dapp.evaluate("""() => { window.enabling = window.injectedWeb3.sigil.enable('E2E <b>Dapp</b>')
                .then(i => { window.ext = i; return 'ok'; }, e => 'error: ' + e.message) }""")
            auth = approval_article(ui, "authorize")
            check(dapp_origin in auth.get_by_role("heading").inner_text(), "authorization shows the site's origin")
            ui.set_viewport_size({"width": 360, "height": 740})
            check(ui.evaluate("document.documentElement.scrollWidth <= 360"),
                  "approval page fits a phone-sized window without horizontal scrolling")
            ui.set_viewport_size({"width": 1280, "height": 800})
            check("E2E Dapp" in auth.inner_text() and "suspicious" in auth.inner_text(),
                  "self-declared name shown sanitized and flagged")
            boxes = auth.locator('input[type="checkbox"]')
            # Nothing is ticked at first (least privilege, issue 16): tick Alice only.
            for i in range(boxes.count()):
                if boxes.nth(i).get_attribute("value") == "0x" + ALICE_PUB.hex():
                    boxes.nth(i).check()
            auth.get_by_role("button", name="Approve").click()
            check(dapp.evaluate("window.enabling") == "ok", "enable resolves after Approve on the approval page")
            accounts = dapp.evaluate("window.ext.accounts.get()")
            check([a["address"] for a in accounts] == [ALICE] and accounts[0]["type"] == "sr25519",
                  "accounts.get lists only the chosen account, with its type")
            dapp.evaluate("() => { window.unsub = window.ext.accounts.subscribe(list => window.pushes.push(list)) }")
            poll(dapp, "window.pushes.length >= 1")
            check(dapp.evaluate("window.pushes[0].map(a => a.address)") == [ALICE], "subscription pushes the list")

            # signPayload: a Polkadot balances.transferKeepAlive(Bob, 1 DOT)
            method = bytes.fromhex("0503") + b"\x00" + BOB_PUB + compact(10_000_000_000)
            block_hash = bytes.fromhex("ab" * 32)
            payload = {
                "address": ALICE, "assetId": None, "blockHash": "0x" + block_hash.hex(), "blockNumber": "0x014fb1fb",
                "era": "0xb503", "genesisHash": "0x" + POLKADOT_GENESIS, "metadataHash": None,
                "method": "0x" + method.hex(), "mode": 0, "nonce": "0x00000007",
                "signedExtensions": POLKADOT_EXTENSIONS, "specVersion": "0x000f5d99",
                "tip": "0x00000000000000000000000000000000", "transactionVersion": "0x0000001a", "version": 4,
                "withSignedTransaction": True,
            }
            dapp.evaluate("p => { window.signing = window.ext.signer.signPayload(p) }", payload)
            tx = approval_article(ui, "extrinsic")
            check("call hash" in tx.text_content(), "transaction approval shows the call hash (under Details)")
            tx.get_by_role("button", name="Approve").click()
            result = dapp.evaluate("window.signing")
            check(result["id"] == 1, "signPayload result carries a numeric id")
            sig = bytes.fromhex(result["signature"][2:])
            check(len(sig) == 65 and sig[0] == 1, "signature is MultiSignature::Sr25519 (0x01 + 64 bytes)")
            signed = polkadot_payload_bytes(method, bytes.fromhex("b503"), 7, 0, 1007001, 26,
                                            bytes.fromhex(POLKADOT_GENESIS), block_hash)
            check(sr25519.verify(sig[1:], signed, ALICE_PUB),
                  "schnorrkel verifies the signature over the exact payload bytes")
            body = b"\x84\x00" + ALICE_PUB + sig + bytes.fromhex("b503") + compact(7) + compact(0) + b"\x00" + method
            check(result.get("signedTransaction") == "0x" + (compact(len(body)) + body).hex(),
                  "signedTransaction is the signed v4 extrinsic")

            # signRaw: wrapped in <Bytes>, unprefixed signature
            dapp.evaluate("""() => { window.raw = window.ext.signer.signRaw(
                {address: '%s', data: 'hello sigil', type: 'bytes'}) }""" % ALICE)
            msg = approval_article(ui, "bytes")
            check("hello sigil" in msg.inner_text(), "message approval shows the text")
            msg.get_by_role("button", name="Approve").click()
            raw = dapp.evaluate("window.raw")
            rsig = bytes.fromhex(raw["signature"][2:])
            check(len(rsig) == 64 and sr25519.verify(rsig, b"<Bytes>hello sigil</Bytes>", ALICE_PUB),
                  "signRaw signature (64 bytes, no prefix) verifies over <Bytes>hello sigil</Bytes>")

            # reject -> Cancelled
            dapp.evaluate("""() => { window.rejected = window.ext.signer.signRaw(
                {address: '%s', data: 'no', type: 'bytes'}).then(() => 'signed', e => e instanceof Error ? e.message : 'not an Error') }""" % ALICE)
            approval_article(ui, "bytes").get_by_role("button", name="Reject").click()
            check(dapp.evaluate("window.rejected") == "Cancelled", "Reject answers an Error with message Cancelled")

            # History (the signing journal, docs/journal.md): the approvals and the rejection, with the site's origin
            history = "#history li[data-origin=\"%s\"][data-decision=\"%s\"]"
            poll(ui, "s => document.querySelectorAll(s).length === 1", history % (dapp_origin, "rejected"))
            check(ui.locator(history % (dapp_origin, "approved")).count() == 3,
                  "History lists the connection and both approved signatures with the site's origin")
            rejected_entry = ui.locator(history % (dapp_origin, "rejected")).first
            check(dapp_origin in rejected_entry.locator("summary").inner_text()
                  and "pub(bytes.sign)" in rejected_entry.locator("summary").inner_text(),
                  "the rejected signature is in History with the site's origin")
            rejected_entry.locator("summary").click()
            shown = rejected_entry.inner_text()
            check("What was shown" in shown and "message" in shown and "no" in shown and "shown digest" in shown,
                  "a History entry expands to what was shown")
            badge = ui.locator("#journal-badge")
            check(badge.is_visible() and badge.inner_text().startswith("✓ Journal verified")
                  and ui.locator("#journal-banner").is_hidden(), "History shows the verified badge, no banner")
            ui.select_option("#filter-decision", "rejected")
            poll(ui, "[...document.querySelectorAll('#history li')].map(li => li.dataset.decision).join() === 'rejected'")
            ui.select_option("#filter-decision", "")
            check(True, "History filters by decision")

            # metadata.provide: a person approves; stored metadata then decodes the call in the prompt
            definition = {"chain": "Polkadot", "genesisHash": "0x" + POLKADOT_GENESIS, "specVersion": 2000000,
                          "ss58Format": 0, "tokenDecimals": 10, "tokenSymbol": "DOT", "types": {}, "icon": "polkadot",
                          "rawMetadata": "0x" + raw_metadata.hex()}
            dapp.evaluate("d => { window.provided = window.ext.metadata.provide(d).then(r => r, e => e.message) }",
                          definition)
            meta = approval_article(ui, "metadata")
            check("spec <unknown> → 2000000 for Polkadot" in meta.text_content(), "metadata approval shows the upgrade")
            meta.get_by_role("button", name="Approve").click()
            check(dapp.evaluate("window.provided") is True, "metadata.provide resolves true after approval")
            check(dapp.evaluate("window.ext.metadata.get()") ==
                  [{"genesisHash": "0x" + POLKADOT_GENESIS, "specVersion": 2000000}], "metadata.get lists it")
            # RFC-0078: the site sends mode 0 and asks for the signed transaction; Sigil sets mode 1 and
            # the hash of the approved metadata, which must be what `sigil metadata hash` prints for it.
            metadata_hash = sigil_metadata_hash(args.sigil, ROOT / "Tests/SigilTesting/Resources/polkadot-v15.scale",
                                                10, "DOT")
            payload2 = dict(payload, specVersion="0x001e8480", nonce="0x00000008")
            dapp.evaluate("p => { window.signing2 = window.ext.signer.signPayload(p) }", payload2)
            tx2 = approval_article(ui, "extrinsic")
            text2 = tx2.text_content()
            check("transfer_keep_alive" in text2 and "1 DOT" in text2.replace("1.0000000000", "1"),
                  "with stored metadata the prompt shows the decoded call and the amount in DOT")
            check("added by Sigil (CheckMetadataHash mode 1" in text2 and "0x" + metadata_hash.hex() in text2,
                  "the prompt says Sigil adds the metadata hash, so the chain enforces what is shown")
            tx2.get_by_role("button", name="Approve").click()
            result2 = dapp.evaluate("window.signing2")
            signed2 = polkadot_payload_bytes(method, bytes.fromhex("b503"), 8, 0, 2000000, 26,
                                             bytes.fromhex(POLKADOT_GENESIS), block_hash, metadata_hash)
            sig2 = bytes.fromhex(result2["signature"][2:])
            check(sr25519.verify(sig2[1:], signed2, ALICE_PUB),
                  "the transfer's signature verifies over the payload with mode 1 and Some(sigil metadata hash)")
            body2 = (b"\x84\x00" + ALICE_PUB + sig2 + bytes.fromhex("b503") + compact(8) + compact(0) + b"\x01"
                     + method)
            check(result2.get("signedTransaction") == "0x" + (compact(len(body2)) + body2).hex(),
                  "signedTransaction is the site's extrinsic with CheckMetadataHash mode 1")

            # mode 1 from the site: its hash is compared with Sigil's
            payload3 = dict(payload2, mode=1, metadataHash="0x" + metadata_hash.hex(), withSignedTransaction=False)
            dapp.evaluate("p => { window.signing3 = window.ext.signer.signPayload(p) }", payload3)
            tx3 = approval_article(ui, "extrinsic")
            check("verified (CheckMetadataHash)" in tx3.text_content(),
                  "a site's mode-1 hash equal to Sigil's is shown as verified")
            tx3.get_by_role("button", name="Approve").click()
            check(sr25519.verify(bytes.fromhex(dapp.evaluate("window.signing3")["signature"][4:]), signed2, ALICE_PUB),
                  "the verified payload is signed as sent")
            wrong = dict(payload3, metadataHash="0x" + bytes(a ^ 1 for a in metadata_hash).hex())
            refused = dapp.evaluate("p => window.ext.signer.signPayload(p).then(() => 'signed', e => e.message)", wrong)
            check(refused.startswith("Metadata hash mismatch:"), "a different mode-1 hash is refused before any prompt")

            # The same with an ed25519 account on a third site, decoded and verified in the page by
            # the real polkadot-js (@polkadot/types, @polkadot/util-crypto)
            decoded_in_page = check_metadata_hash_in_page(context, ui, sigil, third_url, payload2, metadata_hash)

            # an account the site may not use is refused before any prompt
            bob_try = dapp.evaluate("""window.ext.signer.signRaw({address: '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty',
                data: 'x', type: 'bytes'}).then(() => 'signed', e => e.message)""")
            check(bob_try == "Unable to find keypair", "an account not granted to the site is refused without a prompt")

            # a second site sees none of the first site's accounts
            other = context.new_page()
            other.goto(other_url)
            check(other.evaluate("window.injectedWeb3['polkadot-js'] === window.injectedWeb3.sigil"),
                  "?as=polkadot-js also registers under polkadot-js")
            other.evaluate("() => { window.enabling = window.injectedWeb3.sigil.enable('Other').then(i => { window.ext = i; return 'ok' }, e => e.message) }")
            auth2 = approval_article(ui, "authorize")
            b2 = auth2.locator('input[type="checkbox"]')
            for i in range(b2.count()):
                b2.nth(i).uncheck()
            auth2.get_by_role("button", name="Approve").click()
            check(other.evaluate("window.enabling") == "ok", "second site connected")
            check(other.evaluate("window.ext.accounts.get()") == [], "second site sees none of the first site's accounts")

            # the approval page refuses a cross-site POST (from a dapp page, even with the token)
            cross = dapp.evaluate("""async ([url, token]) => {
                try {
                    const r = await fetch(url + '/api/revoke', {method: 'POST',
                        headers: {'Content-Type': 'application/json', 'X-Sigil-Token': token},
                        body: JSON.stringify({source: location.origin})});
                    return 'status ' + r.status;
                } catch (e) { return 'blocked'; }
            }""", [sigil.ui, sigil.token])
            check(cross == "blocked", "cross-site fetch to the approval API is blocked")
            dapp.evaluate("""([url, token]) => fetch(url + '/api/revoke?token=' + token, {method: 'POST', mode: 'no-cors',
                body: JSON.stringify({source: location.origin})}).catch(() => null)""", [sigil.ui, sigil.token])
            check(dapp.evaluate("window.ext.accounts.get().then(a => a.length)") == 1,
                  "a no-cors cross-site POST to the approval page changes nothing")

            # a second tab of the same site: connected at once (no second prompt), its own subscription
            tab2 = context.new_page()
            tab2.goto(dapp_url)
            tab2.evaluate("""() => { window.pushes = []; window.injectedWeb3.sigil.enable('E2E Dapp')
                .then(i => i.accounts.subscribe(l => window.pushes.push(l))) }""")
            poll(tab2, "window.pushes.length >= 1")
            check(tab2.evaluate("window.pushes[0].map(a => a.address)") == [ALICE],
                  "a second tab of the site is connected without a new prompt")

            # revoke on the approval page -> the subscription pushes an empty list
            ui.bring_to_front()
            ui.locator(f'li[data-site="{dapp_origin}"]').get_by_role("button", name="Revoke").click()
            ui.locator(f'li[data-site="{dapp_origin}"]').get_by_role("button", name="Yes, revoke").click()
            poll(dapp, "window.pushes.length >= 2 && window.pushes[window.pushes.length - 1].length === 0")
            poll(tab2, "window.pushes.length >= 2 && window.pushes[window.pushes.length - 1].length === 0")
            check(True, "revocation pushes an empty account list to every open tab of the site")
            after = dapp.evaluate("window.ext.accounts.get().then(() => 'listed', e => e.message)")
            check(after == f"The source {dapp_origin} has not been enabled yet", "revoked site is no longer enabled")

            # the bookmarklet from the approval page puts the wallet into a page that has none
            bookmarklet = json.loads(http("GET", sigil.ui + "/api/state", {"X-Sigil-Token": sigil.token})[1])["bookmarklet"]
            check(bookmarklet.startswith("javascript:"), "the approval page offers a bookmarklet")
            plain = context.new_page()
            plain.goto(dapp_url.replace("127.0.0.1", "localhost"))
            plain.evaluate("delete window.injectedWeb3")
            plain.evaluate(bookmarklet[len("javascript:"):])
            poll(plain, "!!(window.injectedWeb3 && window.injectedWeb3.sigil)")
            check(True, "clicking the bookmarklet injects the wallet")
            browser.close()

        import gzip
        status, bridge = http("GET", sigil.bridge_url)
        check(len(gzip.compress(bridge, 9)) < 10 * 1024, f"bridge.js is {len(gzip.compress(bridge, 9))} bytes gzipped (< 10 KB)")

        # Security gates without a browser
        status, _ = http("GET", sigil.bridge_url, {"Host": "evil.example"})
        check(status == 403, "forged Host header is refused (DNS rebinding)")
        req = json.dumps({"id": "1", "message": "pub(accounts.list)", "request": {}}).encode()
        hdrs = {"Origin": "https://evil.example", "Content-Type": "application/json", "X-Sigil-Session": "evilsession1"}
        status, body = http("POST", sigil.gateway + "/v1/request", hdrs, req)
        check(status == 200 and json.loads(body)["error"] == "The source https://evil.example has not been enabled yet",
              "an unauthorized Origin is refused")
        status, _ = http("POST", sigil.gateway + "/v1/request", {**hdrs, "Content-Type": "text/plain"}, req)
        check(status == 415, "a POST without a JSON content type is refused")
        status, _ = http("POST", sigil.ui + "/api/reject", {"Origin": dapp_origin, "Content-Type": "application/json",
                                                             "X-Sigil-Token": sigil.token}, b'{"id":1}')
        check(status == 403, "the approval API refuses another origin even with the token")
        status, _ = http("GET", sigil.ui + "/api/state", {"X-Sigil-Token": "0" * 64})
        check(status == 403, "the approval API refuses a wrong token")
        status, page = http("GET", sigil.ui + "/")
        check(status == 200, "approval page served")
    finally:
        dapp_server.shutdown()
        other_server.shutdown()
        third_server.shutdown()
        sigil.stop()
    import subprocess
    refused = subprocess.run([args.sigil, "serve", "--auto-approve", "--port", "0", "--ui-port", "0"],
                             capture_output=True, text=True, timeout=30)
    check(refused.returncode == 78 and "error: --auto-approve: auto-approve approves every request without asking; "
          "it is refused without dev (dev is false: default)" in refused.stderr,
          "--auto-approve without --dev is refused (exit 78, naming the field and its source)")
    check_origins_command(args.sigil)
    check_restart(args.sigil, args.chromium)
    check_late_stream(args.sigil, args.chromium)
    check_approval_stream_reopens(args.sigil, args.chromium)
    check_history_banner(args.sigil, args.chromium)
    check_terminal_approver(args.sigil)
    check_keystore_accounts(args.sigil)
    check_userscript(args.sigil, args.chromium)
    if not decoded_in_page:
        not_run("e2e browser: the in-page decode with @polkadot/types and signatureVerify",
                "the vendored polkadot-js bundles are missing (see above); every other check passed")
        return
    print("e2e browser: all checks passed")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print("FAILED:", e, file=sys.stderr)
        sys.exit(1)
