#!/usr/bin/env python3
"""ICRC-29 end to end in Chromium (scripts/test.d/73-e2e-icrc29.sh): a dapp page on another origin
opens Sigil's signer page (/icrc29.html on the dapp port) with window.open and talks to it with
postMessage, as the ICRC signer libraries do; a person's part is played by clicking the approval
page's buttons. Calls go to a stand-in replica (a TEST DOUBLE for the network:
scripts/interop/icp_standin_replica.py checks the envelopes and answers with a certificate-shaped
reply; it executes nothing).

Checks: status handshake; permissions approved on the approval page; icrc27_accounts lists the dev
principal; an approved icrc1_transfer returns contentMap (its request id is in the certificate); a
rejected call gives 3001; a call Sigil cannot describe gives 2001 until the person turns blind signing
on for the dapp's origin on the approval page (two clicks, the second naming the site), then waits
for the person with its warning, and gives 2001 again once turned off; another origin whose
permission prompt is rejected gets 3000.
"""
import argparse
import base64
import os
import subprocess
import sys
import time
import urllib.parse

import cbor2
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import sync_playwright

sys.path.insert(0, os.path.dirname(__file__))
from e2e_browser import check, poll, serve_dapp  # noqa: E402
from sigil_process import SigilProcess  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "interop"))

DEV = "t2kpu-6xt6l-tyb3d-rll2p-irv5c-no5nd-h6spj-jsetq-bmqdz-iap77-pqe"
ARG = ("RElETAZte24AbAKzsNrDA2ithsqDBQFufW54bAb7ygECxvy2AgO6ieXCBAGi3pTrBgGC8/ORDATYo4yoDX0BBQEdP0Duk4WbdYJC1svDpO9SpE+a"
       "ElxKU7FNBuH2LAIAAAAAAMCWsQI=")

# {bridge} is the signer page URL here. The page keeps one result per request id in window.results.
DAPP = """<!doctype html><meta charset="utf-8"><title>ICRC dapp</title>
<button id="open">Connect Sigil</button>
<script>
const SIGNER = {bridge!r};
const signerOrigin = new URL(SIGNER).origin;
window.results = {{}};
let next = 1;
window.addEventListener('message', (e) => {{
  if (e.origin !== signerOrigin || !e.data || e.data.jsonrpc !== '2.0') return;
  window.results[e.data.id] = e.data;
}});
document.getElementById('open').onclick = () => {{ window.signer = window.open(SIGNER, 'sigil', 'width=500,height=600'); }};
window.rpc = (method, params) => {{
  const id = next++;
  const msg = {{ jsonrpc: '2.0', id, method }};
  if (params !== undefined) msg.params = params;
  window.signer.postMessage(msg, signerOrigin);
  return id;
}};
</script>"""


def answer(page, rid, timeout=30.0):
    return poll(page, "id => window.results[id] || null", rid, timeout=timeout)


OPEN = 'article[data-kind="icp"]:has(button.approve:not([disabled]))'


def open_article(ui, text=""):
    """The undecided ICRC approval (a decided one stays on the page, disabled, until it refreshes), the
    approval page brought to the front as the person looks at it (a click in a background tab waits
    about 2 s for an animation frame)."""
    poll(ui, """t => [...document.querySelectorAll('article[data-kind="icp"]')].some(
        a => !a.querySelector('button.approve').disabled && a.textContent.includes(t))""", text)
    ui.bring_to_front()
    return ui.locator(OPEN).first


def decide(ui, approve, text=""):
    open_article(ui, text).locator("button.approve" if approve else "button.reject").click()


def connect(page):
    page.click("#open")
    # ICRC-29: the relying party repeats icrc29_status until the signer is ready.
    # Each status request is given a second for its answer (the signer page may not listen yet).
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        rid = poll(page, "() => window.signer ? window.rpc('icrc29_status') : 0")
        try:
            poll(page, "id => window.results[id] && window.results[id].result === 'ready'", rid, timeout=1)
            return
        except AssertionError:
            continue
    raise AssertionError("the signer page never answered icrc29_status")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sigil", required=True)
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    replica = subprocess.Popen([sys.executable, os.path.join(here, "..", "interop", "icp_standin_replica.py")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    port = replica.stdout.readline().split()[1]
    sigil = SigilProcess(args.sigil, "--ic-url", f"http://127.0.0.1:{port}")
    signer_url = sigil.gateway + "/icrc29.html"
    _, dapp_url = serve_dapp(signer_url, page=DAPP)
    _, other_url = serve_dapp(signer_url, page=DAPP)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
            context = browser.new_context()
            context.set_default_timeout(15000)
            ui = context.new_page()
            ui.goto(sigil.approval_url)
            dapp = context.new_page()
            dapp.goto(dapp_url)
            connect(dapp)
            check(True, "the signer page answers icrc29_status with ready")

            rid = dapp.evaluate("() => window.rpc('icrc25_request_permissions', {scopes: ["
                                "{method: 'icrc27_accounts'}, {method: 'icrc49_call_canister'}]})")
            decide(ui, True)
            scopes = answer(dapp, rid)["result"]["scopes"]
            check(all(s["state"] == "granted" for s in scopes), "permissions approved on the approval page")

            rid = dapp.evaluate("() => window.rpc('icrc27_accounts')")
            check([a["owner"] for a in answer(dapp, rid)["result"]["accounts"]] == [DEV],
                  "icrc27_accounts lists the development principal")

            call = {"canisterId": "ryjl3-tyaaa-aaaaa-aaaba-cai", "sender": DEV, "method": "icrc1_transfer", "arg": ARG}
            rid = dapp.evaluate("c => window.rpc('icrc49_call_canister', c)", call)
            article = open_article(ui, "request id")
            shown = article.text_content()  # Details included
            check("ICP ledger" in shown and "0.05 ICP" in shown and "request id" in shown,
                  "the approval page shows the ledger, the amount and the request id")
            headline = article.locator("h3.headline").inner_text()
            check(headline.startswith("Transfer 0.05 ICP to ") and "…" in headline, f"the call's sentence comes first, the receiver shortened: {headline!r}")
            violations = [v["id"] for v in Axe().run(ui).response["violations"] if v["impact"] in ("serious", "critical")]
            check(not violations, f"the ICP call on the approval page: axe-core finds 0 serious/critical violations {violations}")
            decide(ui, True, "request id")
            result = answer(dapp, rid)["result"]
            content = cbor2.loads(base64.b64decode(result["contentMap"]))
            content = content.value if isinstance(content, cbor2.CBORTag) else content
            check(content["method_name"] == "icrc1_transfer", "an approved icrc1_transfer returns its contentMap")
            check(len(base64.b64decode(result["certificate"])) > 0, "… and the replica's certificate")

            rid = dapp.evaluate("c => window.rpc('icrc49_call_canister', c)", call)
            decide(ui, False, "request id")
            check(answer(dapp, rid)["error"]["code"] == 3001, "Reject gives ICRC-25 error 3001")

            # Blind signing (docs/blind-signing.md): an undescribed method is refused until the person
            # turns the switch on for this origin on the approval page; then it waits with its warning.
            unknown = dict(call, method="custom_method")
            rid = dapp.evaluate("c => window.rpc('icrc49_call_canister', c)", unknown)
            check(answer(dapp, rid)["error"]["code"] == 2001, "an undescribed call is refused with 2001 (blind signing off)")
            origin = "{0.scheme}://{0.netloc}".format(urllib.parse.urlsplit(dapp_url))
            ui.fill("#blind-origin", origin)
            ui.click("#blind-allow")
            check(ui.inner_text("#blind-allow") == f"Confirm: allow blind signing for {origin}",
                  "turning blind signing on asks for a second click that names the site")
            ui.click("#blind-allow")
            ui.wait_for_selector(f'li[data-blind="{origin}"]')
            check(True, "the approval page lists the site with blind signing on")
            rid = dapp.evaluate("c => window.rpc('icrc49_call_canister', c)", unknown)
            shown = open_article(ui, "custom_method").inner_text()
            check("blind signing" in shown.lower() and "custom_method" in shown,
                  "with the switch on, the undescribed call waits for the person with its warning")
            decide(ui, False, "custom_method")
            check(answer(dapp, rid)["error"]["code"] == 3001, "… and Reject gives 3001")
            ui.click(f'li[data-blind="{origin}"] button')
            ui.wait_for_selector(f'li[data-blind="{origin}"]', state="detached")
            rid = dapp.evaluate("c => window.rpc('icrc49_call_canister', c)", unknown)
            check(answer(dapp, rid)["error"]["code"] == 2001, "turned off on the page: refused with 2001 again")

            other = context.new_page()
            other.goto(other_url)
            connect(other)
            rid = other.evaluate("() => window.rpc('icrc27_accounts')")
            decide(ui, False)
            check(answer(other, rid)["error"]["code"] == 3000, "a foreign origin without permission gets 3000")
            browser.close()
    finally:
        sigil.stop()
        replica.terminate()
    print("icrc29 e2e: ok")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print("FAILED:", e, file=sys.stderr)
        sys.exit(1)
