"""End to end for ICON in a real browser (issue 12): Debian's chromium driven by Playwright.

A dapp page on another origin loads /bridge.js and talks ICON the way public ICON dapps talk to the
ICONex and Hana extensions: only window CustomEvents ICONEX_RELAY_REQUEST / ICONEX_RELAY_RESPONSE.
A person's part is played by clicking the approval page's buttons. `sigil serve --dev` sends to
IconTestDoubleNode (a test double that verifies every transaction with iconsdk + coincurve).
- REQUEST_HAS_ACCOUNT, then REQUEST_ADDRESS → the address after Approve on the approval page;
- REQUEST_HAS_ADDRESS for it → true;
- REQUEST_JSON-RPC icx_sendTransaction → the approval page shows it in words (network, ICX with 18
  decimals, step limit, date) → Approve → RESPONSE_JSON-RPC with the hash the node accepted;
- REQUEST_JSON-RPC → Reject → CANCEL_JSON-RPC (nothing reaches the node);
- REQUEST_SIGNING (the page's origin is given to --icon-blind-signing) → a loud BLIND SIGNING alert →
  Approve → RESPONSE_SIGNING recovering to the address; Reject → CANCEL_SIGNING;
- the Connect URL form: the page navigates to /icon/connect?data=&caller=, the person approves,
  the browser lands on caller?data=<answer>, whose signature recovers (coincurve) to the address.
Run by scripts/test.d/71-e2e-icon.sh.
"""
import argparse
import base64
import json
import pathlib
import sys
import time
import urllib.parse

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import coincurve
from iconsdk.libs import serializer
from iconsdk.wallet.wallet import public_key_to_address
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "interop"))
from e2e_browser import approval_article, check, poll  # noqa: E402
from icon_test_double_node import IconTestDoubleNode  # noqa: E402
from sigil_process import SigilProcess  # noqa: E402

ICON_DAPP_HTML = """<!doctype html><html><head><meta charset="utf-8"><title>ICON test dapp</title>
<script src="{bridge}"></script></head><body><h1>ICON test dapp</h1>
<script>
// Exactly what ICON dapps do with ICONex/Hana: dispatch a request event, wait for the response event.
window.icon = (type, payload) => new Promise((resolve) => {{
  const onResponse = (ev) => {{ window.removeEventListener('ICONEX_RELAY_RESPONSE', onResponse); resolve(ev.detail); }};
  window.addEventListener('ICONEX_RELAY_RESPONSE', onResponse);
  window.dispatchEvent(new CustomEvent('ICONEX_RELAY_REQUEST', {{ detail: payload === undefined ? {{ type }} : {{ type, payload }} }}));
}});
window.results = {{}};
</script></body></html>"""


def serve_page():
    """A dapp server on a free port whose page is set later (its origin must be known before
    `sigil serve` starts, for --icon-blind-signing). Returns (server, URL, holder)."""
    holder = {"html": b""}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(holder["html"])))
            self.end_headers()
            self.wfile.write(holder["html"])

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/", holder


def recovers(signature_b64, msg_hash, address):
    pub = coincurve.PublicKey.from_signature_and_message(base64.b64decode(signature_b64), msg_hash, hasher=None)
    return public_key_to_address(pub.format(compressed=False)) == address


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sigil", required=True)
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args()

    node = IconTestDoubleNode()
    server, dapp_url, holder = serve_page()
    sigil = SigilProcess(args.sigil, "--icon-rpc", node.url, "--icon-blind-signing", dapp_url.rstrip("/"))
    holder["html"] = ICON_DAPP_HTML.format(bridge=sigil.bridge_url).encode()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
            context = browser.new_context()
            context.set_default_timeout(15000)
            dapp = context.new_page()
            ui = context.new_page()
            dapp.goto(dapp_url)
            ui.goto(sigil.approval_url)
            poll(ui, "document.getElementById('status').textContent === 'Live'")

            has = dapp.evaluate("window.icon('REQUEST_HAS_ACCOUNT')")
            check(has == {"type": "RESPONSE_HAS_ACCOUNT", "payload": {"hasAccount": True}},
                  "REQUEST_HAS_ACCOUNT → RESPONSE_HAS_ACCOUNT {hasAccount: true}")

            dapp.evaluate("() => { window.icon('REQUEST_ADDRESS').then(d => { window.results.address = d; }); }")
            auth = approval_article(ui, "authorize")
            check(dapp_url.rstrip("/") in auth.get_by_role("heading").inner_text(), "the bind shows the site's origin")
            check("ICON dev (public test seed)" in auth.inner_text(), "the dev ICON account is offered, labelled")
            # Nothing is ticked at first (least privilege, issue 16): tick the ICON account.
            auth.get_by_role("checkbox", name="ICON dev (public test seed)").check()
            auth.get_by_role("button", name="Approve").click()
            address = poll(dapp, "window.results.address")
            check(address["type"] == "RESPONSE_ADDRESS" and address["payload"].startswith("hx"),
                  "REQUEST_ADDRESS → RESPONSE_ADDRESS with the hx address after Approve")
            me = address["payload"]
            has = dapp.evaluate("a => window.icon('REQUEST_HAS_ADDRESS', a)", me)
            check(has == {"type": "RESPONSE_HAS_ADDRESS", "payload": {"hasAddress": True}}, "REQUEST_HAS_ADDRESS → true")

            now = int(time.time() * 1_000_000)
            tx = {"version": "0x3", "from": me, "to": "hx87a90bfe8ed49e1a25184ce77fa0d9c4b0484d6a",
                  "value": "0xde0b6b3a7640001", "stepLimit": "0x186a0", "nid": "0x1", "nonce": "0x1",
                  "timestamp": hex(now)}
            request = {"jsonrpc": "2.0", "method": "icx_sendTransaction", "id": 42, "params": tx}
            dapp.evaluate("r => { window.icon('REQUEST_JSON-RPC', r).then(d => { window.results.rpc = d; }); }", request)
            prompt = approval_article(ui, "icon")
            text = prompt.text_content()  # Details included
            check("ICON Mainnet" in text and "1.000000000000000001 ICX" in text and "100000" in text
                  and "UTC" in text and "hx87a90bfe8ed49e1a25184ce77fa0d9c4b0484d6a" in text,
                  "the approval page shows network, exact ICX (18 decimals), step limit, date and receiver")
            prompt.get_by_role("button", name="Approve").click()
            rpc = poll(dapp, "window.results.rpc", timeout=20)
            expected = "0x" + serializer.generate_message(tx)
            check(rpc["type"] == "RESPONSE_JSON-RPC" and rpc["payload"] == {"jsonrpc": "2.0", "id": 42, "result": expected},
                  "REQUEST_JSON-RPC → RESPONSE_JSON-RPC with iconsdk's hash of the transaction")
            check(node.accepted and node.accepted[-1][1] == expected,
                  "the test-double node verified the signed transaction (iconsdk + coincurve) before answering")

            sent = len(node.accepted)
            tx2 = dict(tx, nonce="0x2")
            dapp.evaluate("r => { window.icon('REQUEST_JSON-RPC', r).then(d => { window.results.rpc2 = d; }); }",
                          dict(request, id=43, params=tx2))
            approval_article(ui, "icon").get_by_role("button", name="Reject").click()
            rejected = poll(dapp, "window.results.rpc2")
            check(rejected == {"type": "CANCEL_JSON-RPC"}, "Reject → CANCEL_JSON-RPC")
            check(len(node.accepted) == sent, "nothing reached the node after Reject")

            # REQUEST_SIGNING: blind signing, allowed for this origin only, under a loud warning.
            blind_hash = "ba4da77c1dbf48071fbd3f9ee6d869580d177f01468e1e42bbb58733b9087f64"
            dapp.evaluate("p => { window.icon('REQUEST_SIGNING', p).then(d => { window.results.blind = d; }); }",
                          {"from": me, "hash": blind_hash})
            prompt = approval_article(ui, "icon-hash")
            alert = prompt.locator(".blind")
            check(alert.is_visible() and "BLIND SIGNING" in alert.inner_text(), "blind signing shows a loud alert")
            prompt.get_by_role("button", name="Approve").click()
            blind = poll(dapp, "window.results.blind")
            check(blind["type"] == "RESPONSE_SIGNING" and recovers(blind["payload"], bytes.fromhex(blind_hash), me),
                  "REQUEST_SIGNING → RESPONSE_SIGNING whose signature recovers to the address")
            dapp.evaluate("p => { window.icon('REQUEST_SIGNING', p).then(d => { window.results.blind2 = d; }); }",
                          {"from": me, "hash": blind_hash})
            approval_article(ui, "icon-hash").get_by_role("button", name="Reject").click()
            check(poll(dapp, "window.results.blind2") == {"type": "CANCEL_SIGNING"}, "Reject → CANCEL_SIGNING")

            # The Connect URL form: a navigation to Sigil, a decision, a redirect back to the caller.
            tx3 = dict(tx, nonce="0x3", value="0x1")
            data = base64.b64encode(json.dumps({"id": 9, "method": "sign", "params": tx3}).encode()).decode()
            caller = dapp_url + "callback?from=connect"
            target = sigil.gateway + "/icon/connect?" + urllib.parse.urlencode({"data": data, "caller": caller})
            dapp.evaluate("t => { setTimeout(() => { location.href = t; }, 0); }", target)
            prompt = approval_article(ui, "icon")
            check("the site, not Sigil, will send" in prompt.text_content(), "a sign request says the site sends it")
            check(caller in prompt.text_content(), "the URL form shows the caller the answer goes to")
            # Issue 24: the identity of a link request is the referring page's, which Sigil cannot verify.
            check(prompt.locator("ul.warnings li", has_text="came from a link").count() == 1,
                  "the URL form's card warns that the request came from a link (Referer, unverified)")
            prompt.get_by_role("button", name="Approve").click()
            dapp.wait_for_url(lambda u: u.startswith(caller + "&data="), timeout=20000)
            check(dapp.url.startswith(caller + "&data="), f"the browser is redirected to caller?data= ({dapp.url[:80]})")
            answer = json.loads(base64.b64decode(urllib.parse.unquote(dapp.url.split("&data=")[1])))
            check(answer["id"] == 9 and answer["code"] == 1
                  and recovers(answer["result"], bytes.fromhex(serializer.generate_message(tx3)), me),
                  "the redirected Connect answer carries a signature that recovers to the address")
            browser.close()
    finally:
        sigil.stop()
        node.stop()
        server.shutdown()
    print("ICON end to end: all checks passed")


if __name__ == "__main__":
    main()
