"""The approval experience in Chromium (issue 16), run by scripts/test.d/74-e2e-approval-ux.sh.

`sigil serve --dev` on free ports, a dapp page on another origin using the bridge as polkadot-js dapps
do, Python clients for ICON (/icon/connect), the Internet Computer (/v1/icrc), many sites and a flood
of strangers. Every state of the page (empty, connect, metadata, transaction, transaction in dark mode,
batch, message, ICON, ICP, 64 waiting, throttled, connected sites with the Revoke confirmation, History)
is checked with axe-core (axe-playwright-python, in the same Chromium: 0 serious or critical
violations, light at 1280 and 390 px, dark at 1280 px), at 360 and 390 px without horizontal scroll (document width equals the viewport's), and
photographed at 390 and 1280 px into --screenshots (docs/screenshots/ by default; README "Approval page").

Checks as text: the headline sentence of a connection, a metadata update, a transfer, a batch, a message,
an ICON transfer and an ICP permission request; nothing ticked in a connection request; the title
count; identicons beside addresses with the circle colours of the polkadot-js identicon code; the full
address on focus; Details closed until asked; a short warning sentence instead of extension lists;
keyboard-only approve (Space to tick, Enter on Approve) and reject (Escape) with visible focus; oldest
first and compact lines with 64 waiting; a connected site's accounts changed on the page; Revoke asks
once; the opt-in notification and sound for a request arriving in the background.
"""
import argparse
import json
import pathlib
import sys
import threading
import re
import time
import urllib.request

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import sync_playwright
from scalecodec.utils.ss58 import ss58_decode, ss58_encode

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from e2e_browser import (ALICE, ALICE_PUB, BOB_PUB, POLKADOT_EXTENSIONS, POLKADOT_GENESIS, ROOT,  # noqa: E402
                         approval_article, check, compact, http, poll, serve_dapp)
from sigil_process import SigilProcess  # noqa: E402

# polkadot-js/ui packages/ui-shared/src/icons/polkadot.spec.ts ("generates the correct points from
# known"): polkadotIcon('5Dqvi1p4C7EhPPFKCixpF3QiaJEaDwWrR9gfWR5eUsfC39TX', { isAlternative: false }).
# The fills of its 20 circles, the outer '#eee' first. Copied here so the test needs no network.
VECTOR_ADDRESS = "5Dqvi1p4C7EhPPFKCixpF3QiaJEaDwWrR9gfWR5eUsfC39TX"
VECTOR_FILLS = [
    "#eee", "hsl(196, 65%, 53%)", "hsl(320, 65%, 53%)", "transparent", "hsl(112, 65%, 15%)",
    "hsl(22, 65%, 15%)", "hsl(213, 65%, 15%)", "hsl(163, 65%, 53%)", "hsl(213, 65%, 53%)",
    "hsl(185, 65%, 75%)", "hsl(163, 65%, 53%)", "hsl(213, 65%, 53%)", "hsl(213, 65%, 15%)",
    "hsl(112, 65%, 15%)", "hsl(22, 65%, 15%)", "transparent", "hsl(196, 65%, 53%)", "hsl(320, 65%, 53%)",
    "hsl(11, 65%, 35%)", "hsl(309, 65%, 53%)",
]
# The same spec's circle centres (cx, cy), rounded to 6 places: the layout is polkadot-js's too.
VECTOR_CENTRES = [
    (32, 32), (32, 8), (32, 20), (21.607695, 14), (11.215390, 20), (21.607695, 26), (11.215390, 32),
    (11.215390, 44), (21.607695, 38), (21.607695, 50), (32, 56), (32, 44), (42.392305, 50), (52.784610, 44),
    (42.392305, 38), (52.784610, 32), (52.784610, 20), (42.392305, 26), (42.392305, 14), (32, 32),
]

ONE_DOT = 10_000_000_000
ICON_TO = "hx87a90bfe8ed49e1a25184ce77fa0d9c4b0484d6a"

# Test doubles for the browser's attention APIs on the approval page only: the Notification
# constructor records what would be shown, AudioContext counts sounds, and `document.hidden` is
# whatever the test sets (a page in the background).
ATTENTION_DOUBLES = """
(() => {
  window.__notes = []; window.__beeps = 0; window.__hidden = false;
  Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get() { return window.__hidden === true; } });
  class NotificationDouble {
    constructor(title, options) { window.__notes.push({ title, body: (options || {}).body || '' }); }
    close() {}
    static get permission() { return 'granted'; }
    static requestPermission() { return Promise.resolve('granted'); }
  }
  window.Notification = NotificationDouble;
  window.AudioContext = function () { window.__beeps += 1; throw new Error('audio test double'); };
})();
"""


def short(address):
    head = 6 if address[:2] in ("hx", "cx", "0x") else 4
    return address if len(address) <= head + 6 else f"{address[:head]}…{address[-4:]}"


class Page:
    """The approval page and the checks every state gets."""

    def __init__(self, ui, shots):
        """`shots` None: the quick check of the fast tier (axe at 1280 px light and no horizontal scroll
        at 390 px, no screenshots); the full tier photographs and checks every width and scheme."""
        self.ui = ui
        self.shots = shots
        self.axe = Axe()
        self.states = []
        self.scheme = "light"

    def state(self, name, full_page=True, show=None):
        """axe at 1280 and 390 px, no horizontal scroll at 360 and 390 px, screenshots at 390 and 1280 px
        (the whole page, or the window scrolled to `show` where the page has grown long). Without
        `shots`: axe at 1280 px and no horizontal scroll at 390 px only."""
        ui = self.ui
        quick = self.shots is None
        for width, scheme in ((1280, "light"),) if quick else ((1280, "light"), (390, "light"), (1280, "dark")):
            ui.set_viewport_size({"width": width, "height": 844 if width == 390 else 800})
            ui.emulate_media(color_scheme=scheme)
            result = self.axe.run(ui)
            bad = [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
                   for v in result.response["violations"] if v["impact"] in ("serious", "critical")]
            check(not bad, f"{name} at {width} px, {scheme}: axe-core finds 0 serious/critical violations {bad}")
        ui.emulate_media(color_scheme=self.scheme)
        for width in (390,) if quick else (360, 390):
            ui.set_viewport_size({"width": width, "height": 844})
            widths = ui.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth, window.innerWidth]")
            check(widths[0] == widths[1] and widths[1] <= width,
                  f"{name} at {width} px: no horizontal scroll (document width {widths[0]} == viewport width {widths[1]})")
        for width in () if quick else (390, 1280):
            ui.set_viewport_size({"width": width, "height": 844 if width == 390 else 800})
            if show:
                ui.locator(show).first.evaluate("e => e.scrollIntoView({block: 'start'})")
            ui.screenshot(path=str(self.shots / f"{name}-{width}.png"), full_page=full_page and not show)
        if quick:
            ui.set_viewport_size({"width": 1280, "height": 800})
        self.states.append(name)

    def headline(self, kind):
        article = approval_article(self.ui, kind)
        return article, article.locator("h3.headline").inner_text()


def tab_to(ui, selector, limit=120):
    """Presses Tab until `selector` has the focus; checks the focus is visible (an outline)."""
    for _ in range(limit):
        ui.keyboard.press("Tab")
        if ui.evaluate("s => document.activeElement && document.activeElement.matches(s)", selector):
            outline = ui.evaluate("() => { const s = getComputedStyle(document.activeElement); "
                                  "return [s.outlineStyle, parseFloat(s.outlineWidth)]; }")
            check(outline[0] != "none" and outline[1] >= 2, f"keyboard focus on {selector} is visible ({outline})")
            return
    raise AssertionError(f"Tab never reached {selector}")


def post_json(url, body, headers, timeout=60):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, None


def in_background(fn, *args):
    box = {}
    t = threading.Thread(target=lambda: box.setdefault("result", fn(*args)), daemon=True)
    t.start()
    return t, box


def payload(method, nonce):
    return {
        "address": ALICE, "assetId": None, "blockHash": "0x" + "ab" * 32, "blockNumber": "0x014fb1fb",
        "era": "0xb503", "genesisHash": "0x" + POLKADOT_GENESIS, "metadataHash": None,
        "method": "0x" + method.hex(), "mode": 0, "nonce": f"0x{nonce:08x}",
        "signedExtensions": POLKADOT_EXTENSIONS, "specVersion": "0x001e8480",
        "tip": "0x" + "00" * 16, "transactionVersion": "0x0000001a", "version": 4, "withSignedTransaction": False,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sigil", required=True)
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--screenshots", default=str(ROOT / "docs/screenshots"))
    args = ap.parse_args()
    shots = pathlib.Path(args.screenshots)
    shots.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()

    sigil = SigilProcess(args.sigil)
    dapp_server, dapp_url = serve_dapp(sigil.bridge_url)
    origin = dapp_url.rstrip("/")
    ui_headers = {"Origin": sigil.ui, "X-Sigil-Token": sigil.token, "Sec-Fetch-Site": "same-origin"}
    state = lambda: json.loads(http("GET", sigil.ui + "/api/state", {"X-Sigil-Token": sigil.token})[1])
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
            context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme="light")
            context.set_default_timeout(15000)
            ui = context.new_page()
            ui.add_init_script(ATTENTION_DOUBLES)
            ui.goto(sigil.approval_url)
            poll(ui, "document.getElementById('status').textContent === 'Live'")
            page = Page(ui, shots)
            # The accessibility check can fail: axe-core finds a control without a name in a page made for it.
            probe = context.new_page()
            probe.set_content('<!doctype html><html lang="en"><title>t</title><main><button></button></main></html>')
            found = [v["id"] for v in Axe().run(probe).response["violations"]]
            check("button-name" in found, f"axe-core runs and reports a nameless button ({found})")
            probe.close()

            # Empty
            check(ui.locator("#empty").is_visible() and ui.title() == "Sigil approvals", "empty: Nothing to approve, plain title")
            page.state("empty")

            # Connect: the sentence, nothing ticked, the title count, identicons in the account list
            dapp = context.new_page()
            dapp.goto(dapp_url)
            dapp.evaluate("""() => { window.enabling = window.injectedWeb3.sigil.enable('Demo dapp')
                .then(i => { window.ext = i; return 'ok'; }, e => 'error: ' + e.message) }""")
            auth, text = page.headline("authorize")
            check(text == f"Connect {origin} (Demo dapp)", f"connect headline: {text!r}")
            boxes = auth.locator('input[type="checkbox"]')
            check(boxes.count() >= 8 and ui.evaluate(
                "[...document.querySelectorAll('article[data-kind=authorize] input[type=checkbox]')].every(b => !b.checked)"),
                f"a connection request starts with none of the {boxes.count()} accounts ticked")
            check(ui.title() == "(1) Sigil approvals", f"the title counts the waiting request: {ui.title()!r}")
            alice_box = f'article[data-kind="authorize"] input[value="0x{ALICE_PUB.hex()}"]'
            check(origin in (ui.locator(alice_box).get_attribute("aria-label") or ""),
                  "each checkbox's accessible name names the site and the account")
            icons = ui.evaluate("""() => [...document.querySelectorAll('article[data-kind=authorize] label')].map(l =>
                [l.textContent, l.querySelectorAll('svg.identicon circle').length])""")
            check(all(n == 20 for t, n in icons if "sr25519" in t or "ed25519" in t) and
                  all(n == 0 for t, n in icons if " icon" in t), "an identicon (20 circles) beside every Polkadot account, none for ICON")
            page.state("connect")
            # Keyboard only: Tab to Alice, Space ticks it, Tab to Approve, Enter approves.
            ui.bring_to_front()
            ui.evaluate("document.activeElement && document.activeElement.blur()")
            tab_to(ui, alice_box)
            ui.keyboard.press("Space")
            tab_to(ui, 'article[data-kind="authorize"] button.approve')
            check(origin in ui.evaluate("document.activeElement.getAttribute('aria-label')"),
                  "the Approve button's accessible name names the site")
            ui.keyboard.press("Enter")
            check(poll(dapp, "window.enabling") == "ok", "keyboard-only approve: Space ticks Alice, Enter on Approve connects")
            # The page moves the focus off the buttons synchronously when the decision is made, so
            # no moment exists where a button holds it; then it settles on the next heading.
            check(poll(ui, "document.activeElement.matches('h2, h3, summary')") and
                  not ui.evaluate("document.activeElement.matches('button')"),
                  "after a decision the focus is on a heading, never on a button (nothing approves by accident)")
            check([a["address"] for a in dapp.evaluate("window.ext.accounts.get()")] == [ALICE],
                  "the site sees exactly the account ticked")

            # Metadata update
            raw_metadata = (ROOT / "Tests/SigilTesting/Resources/polkadot-v15.scale").read_bytes()
            definition = {"chain": "Polkadot", "genesisHash": "0x" + POLKADOT_GENESIS, "specVersion": 2000000,
                          "ss58Format": 0, "tokenDecimals": 10, "tokenSymbol": "DOT", "types": {}, "icon": "polkadot",
                          "rawMetadata": "0x" + raw_metadata.hex()}
            dapp.evaluate("d => { window.provided = window.ext.metadata.provide(d).then(r => r, e => e.message) }", definition)
            meta, text = page.headline("metadata")
            check(text == "Update Polkadot metadata to 2000000", f"metadata headline: {text!r}")
            page.state("metadata")
            meta.get_by_role("button", name="Approve").click()
            check(poll(dapp, "window.provided") is True, "metadata approved by a click")

            # A transfer to the polkadot-js identicon vector's account
            vector_id = bytes.fromhex(ss58_decode(VECTOR_ADDRESS))
            vector_dot = ss58_encode(vector_id.hex(), 0)
            alice_dot = ss58_encode(ALICE_PUB.hex(), 0)
            transfer = bytes.fromhex("0503") + b"\x00" + vector_id + compact(ONE_DOT)
            dapp.evaluate("p => { window.t1 = window.ext.signer.signPayload(p).then(r => 'signed', e => e.message) }",
                          payload(transfer, 7))
            tx, text = page.headline("extrinsic")
            check(text == f"Send 1 DOT from Alice to {short(vector_dot)}", f"transfer headline: {text!r}")
            fills = ui.evaluate("""() => [...document.querySelectorAll('article[data-kind=extrinsic] .who[data-role=to] svg circle')]
                .map(c => c.getAttribute('fill'))""")
            check(fills == VECTOR_FILLS, "the receiver's identicon has the circle colours of polkadot-js's identicon spec vector")
            centres = ui.evaluate("""() => [...document.querySelectorAll('article[data-kind=extrinsic] .who[data-role=to] svg circle')]
                .map(c => [+c.getAttribute('cx'), +c.getAttribute('cy')])""")
            check(all(abs(a - x) < 1e-6 and abs(b - y) < 1e-6 for (a, b), (x, y) in zip(centres, VECTOR_CENTRES))
                  and len(centres) == 20, "… at polkadot-js's circle positions")
            sender = ui.locator('article[data-kind="extrinsic"] .who[data-role="from"]')
            check(sender.locator(".name").inner_text() == "Alice" and sender.locator("svg circle").count() == 20
                  and sender.locator("code.addr").get_attribute("data-address") == alice_dot,
                  "the signer: identicon, the person's name, the address in Polkadot's own format")
            warnings = tx.locator("ul.warnings li").all_inner_texts()
            check(len(warnings) == 1 and "AuthorizeCall" in warnings[0] and "[" not in warnings[0] and len(warnings[0]) < 220,
                  f"the extension warning is one short sentence naming the difference: {warnings}")
            check(not tx.locator("details.more").evaluate("d => d.open") and not tx.get_by_text("call hash").is_visible(),
                  "Details (chain, versions, mortality, nonce, tip, fee asset, call hash) are closed at first")
            page.state("transaction")
            page.scheme = "dark"
            ui.emulate_media(color_scheme="dark")
            page.state("transaction-dark", full_page=False)
            page.scheme = "light"
            ui.emulate_media(color_scheme="light")
            tx.locator("details.more > summary").click()
            details = tx.locator("details.more").inner_text()
            check(all(w in details for w in ("genesis 0x91b1", "transaction version 26", "valid from block", "nonce",
                                              "tip", "fee asset", "call hash", "Balances.transfer_keep_alive")),
                  "one click opens every detail")
            page.state("transaction-details")
            # Keyboard only: the address shows in full on focus; Escape rejects.
            ui.evaluate("document.activeElement && document.activeElement.blur()")
            tab_to(ui, 'article[data-kind="extrinsic"] .who[data-role="to"] code.addr')
            check(ui.evaluate("document.activeElement.textContent") == vector_dot, "a focused address shows in full")
            ui.keyboard.press("Escape")
            check(poll(dapp, "window.t1") == "Cancelled", "keyboard-only reject: Escape on a focused request rejects it")

            # A batch
            batch = (bytes.fromhex("1a00") + compact(3) + bytes.fromhex("0503") + b"\x00" + BOB_PUB + compact(ONE_DOT)
                     + bytes.fromhex("0700") + compact(100 * ONE_DOT) + b"\x00" + bytes.fromhex("00001468656c6c6f"))
            dapp.evaluate("p => { window.t2 = window.ext.signer.signPayload(p).then(r => r.signature, e => e.message) }",
                          payload(batch, 8))
            tx, text = page.headline("extrinsic")
            check(text == 'Batch of 3 calls: Send 1 DOT to Bob; Stake 100 DOT; Write the remark "hello" on Polkadot',
                  f"batch headline: {text!r}")
            page.state("batch")
            tx.get_by_role("button", name="Approve").click()
            check(str(poll(dapp, "window.t2")).startswith("0x01"), "the batch is signed after a click on Approve")

            # A message
            dapp.evaluate("a => { window.m1 = window.ext.signer.signRaw({address: a, data: 'hello', type: 'bytes'}).then(r => 'signed', e => e.message) }", ALICE)
            msg, text = page.headline("bytes")
            check(text == 'Sign the message "hello"', f"message headline: {text!r}")
            page.state("message")
            msg.get_by_role("button", name="Approve").click()
            check(poll(dapp, "window.m1") == "signed", "the message is signed")

            # Attention: opt in; a request arriving in the background notifies and sounds
            context.grant_permissions(["notifications"], origin=sigil.ui)
            ui.check("#pref-notify")
            ui.check("#pref-sound")
            ui.evaluate("window.__hidden = true")
            dapp.evaluate("a => { window.m2 = window.ext.signer.signRaw({address: a, data: 'ping', type: 'bytes'}).then(r => 'signed', e => e.message) }", ALICE)
            note = poll(ui, "window.__notes[0] || null")
            check(note["body"] == f'Sign the message "ping" ({origin})' and poll(ui, "window.__beeps") == 1,
                  f"a request in the background: a desktop notification with its sentence and a sound ({note})")
            ui.evaluate("window.__hidden = false")
            approval_article(ui, "bytes").get_by_role("button", name="Reject").click()
            check(poll(dapp, "window.m2") == "Cancelled", "… rejected by a click")

            # A connected site's accounts changed on the page: add the ICON dev account
            accounts = state()["accounts"]
            icon = next(a for a in accounts if a["type"] == "icon")
            site = ui.locator(f'li[data-site="{origin}"]')
            site.get_by_role("button", name=f"Accounts of {origin}").click()
            site.locator(f'input[value="{icon["key"]}"]').check()
            site.get_by_role("button", name=f"Save accounts of {origin}").click()
            poll(ui, "o => [...document.querySelectorAll('li[data-site]')].some(l => l.dataset.site === o && l.textContent.includes('2 account(s)'))", origin)
            granted = next(s for s in state()["sites"] if s["source"] == origin)["accounts"]
            check(sorted(granted) == sorted(["0x" + ALICE_PUB.hex(), icon["key"]]), "the site's accounts changed on the page")

            # ICON: Connect v1 `sign` from the site
            now_us = int(time.time() * 1_000_000)
            tx_params = {"version": "0x3", "from": icon["address"], "to": ICON_TO, "value": hex(10**18),
                         "stepLimit": "0x186a0", "timestamp": hex(now_us), "nid": "0x1", "nonce": "0x1"}
            icon_call, icon_box = in_background(post_json, sigil.gateway + "/icon/connect",
                                                {"id": 1, "method": "sign", "params": tx_params},
                                                {"Origin": origin, "X-Sigil-Session": "iconsession01"})
            art, text = page.headline("icon")
            check(text == f"Send 1 ICX from {icon['name']} to {short(ICON_TO)} (the site sends it)", f"ICON headline: {text!r}")
            page.state("icon")
            art.get_by_role("button", name="Reject").click()
            icon_call.join(30)
            check(icon_box["result"][1]["code"] != 1, "the ICON request is rejected")

            # Issue 24: a contract call with 200 params, 5000 ICX and a method name holding a line break:
            # the ICX is in the sentence, the line break is shown escaped, Details carries 40 rows and
            # "Show N more rows", which fetches the full text on demand.
            many_params = {f"p{i:03d}": f"value {i}" for i in range(200)}
            call_params = dict(tx_params, to="cxb0776ee37f5b45bfaea8cff1d8232fbb6122ec32", value=hex(5000 * 10**18),
                               stepLimit="0x30d40", nonce="0x2", dataType="call",
                               data={"method": "vote\n! Verified: 0 ICX leaves your account", "params": many_params})
            big_call, big_box = in_background(post_json, sigil.gateway + "/icon/connect",
                                              {"id": 3, "method": "sign", "params": call_params},
                                              {"Origin": origin, "X-Sigil-Session": "iconsession03"})
            art, text = page.headline("icon")
            check("\n" not in text and "vote\\n! Verified" in text and "sending 5000 ICX with it" in text,
                  f"ICX sent with a call is in the sentence and the method's line break is shown escaped: {text!r}")
            check(art.locator("ul.warnings li", has_text="also sends 5000 ICX").count() == 1, "… with a warning")
            art.locator("details.more > summary").click()
            rows = art.locator("details.more dt").count()
            check(rows <= 1 + 40 + 20, f"Details carries at most 40 rows (+ warnings) of 200 params ({rows})")
            more = art.get_by_role("button", name=re.compile(r"Show \d+ more rows \(full text\)"))
            check(more.count() == 1, "a Show N more rows button")
            more.click()
            full = art.locator("pre.full-text")
            full.wait_for(timeout=10_000)
            check("p199: value 199" in full.inner_text(), "the full text on demand has every param")
            art.get_by_role("button", name="Reject").click()
            big_call.join(30)
            check(big_box["result"][1]["code"] != 1, "the large ICON request is rejected")

            # A connected site asking again (ICON Connect `bind`): exactly the accounts granted before are ticked
            bind, bind_box = in_background(post_json, sigil.gateway + "/icon/connect", {"id": 2, "method": "bind"},
                                           {"Origin": origin, "X-Sigil-Session": "iconsession02"})
            auth, text = page.headline("authorize")
            ticked = ui.evaluate("""() => [...document.querySelectorAll('article[data-kind=authorize] input[type=checkbox]')]
                .filter(b => b.checked).map(b => b.value).sort()""")
            check(ticked == sorted(granted), f"a site asking again starts with exactly its granted accounts ticked ({len(ticked)})")
            auth.get_by_role("button", name="Approve").click()
            bind.join(30)
            check(bind_box["result"][1] == {"id": 2, "code": 1, "result": icon["address"]}, "… and keeps them when approved")

            # Internet Computer: an ICRC-25 permission request
            icp_call, icp_box = in_background(post_json, sigil.gateway + "/v1/icrc",
                                              {"jsonrpc": "2.0", "id": 1, "method": "icrc25_request_permissions",
                                               "params": {"scopes": [{"method": "icrc27_accounts"}]}},
                                              {"Origin": "https://icp.example"})
            art, text = page.headline("icp")
            check(text == "Connect https://icp.example (Internet Computer)", f"ICP headline: {text!r}")
            page.state("icp")
            art.get_by_role("button", name="Reject").click()
            icp_call.join(30)
            check(icp_box["result"][1]["result"]["scopes"][0]["state"] == "denied", "the ICP permission is denied")

            # 64 waiting: eight connected sites with eight messages each
            t0 = time.monotonic()
            many = [f"https://many{i}.example" for i in range(8)]
            for i, site_origin in enumerate(many):
                hdrs = {"Origin": site_origin, "X-Sigil-Session": f"manysession{i:02d}"}
                post_json(sigil.gateway + "/v1/request", {"id": "a", "message": "pub(authorize.tab)", "request": {"origin": f"Many {i}"}}, hdrs)
                pid = next(a["id"] for a in state()["pending"] if a["source"] == site_origin)
                post_json(sigil.ui + "/api/approve", {"id": pid, "accounts": ["0x" + ALICE_PUB.hex()]}, ui_headers)
                for j in range(8):
                    post_json(sigil.gateway + "/v1/request", {"id": f"m{j}", "message": "pub(bytes.sign)",
                                                               "request": {"address": ALICE, "data": f"message {i}.{j}", "type": "bytes"}}, hdrs)
            poll(ui, "document.querySelectorAll('#pending article').length === 64", timeout=20)
            shown = time.monotonic() - t0
            check(ui.title() == "(64) Sigil approvals", f"the title counts 64 waiting ({shown:.1f} s from the first request)")
            layout = ui.evaluate("""() => { const arts = [...document.querySelectorAll('#pending article')];
                return {ids: arts.map(a => +a.dataset.approval), compact: arts.filter(a => a.classList.contains('compact')).length,
                        nodes: document.querySelectorAll('#pending *').length}; }""")
            check(layout["ids"] == sorted(layout["ids"]), "requests are listed oldest first")
            check(layout["compact"] == 61 and layout["nodes"] < 1500,
                  f"beyond the first three, one compact line each ({layout['compact']} compact, {layout['nodes']} elements)")
            timing = ui.evaluate("""async () => { const t = performance.now();
                const d = document.querySelector('#pending article.compact details'); d.open = true;
                await new Promise(r => setTimeout(r, 0)); return [performance.now() - t, d.querySelectorAll('button').length]; }""")
            check(timing[1] == 2, f"a compact line opens to the full request with its buttons ({timing[0]:.0f} ms)")
            page.state("many", show="#pending article:nth-child(3)")
            ui.locator("#pending article.compact details[open] button.reject").click()
            poll(ui, "document.querySelectorAll('#pending article').length === 63")
            focused = poll(ui, "document.activeElement.matches('h2, h3, summary') && document.activeElement.textContent")
            check(ui.title() == "(63) Sigil approvals" and focused.startswith("Sign the message"),
                  f"a request decided from its compact line goes; the focus moves to the next one's line ({focused!r})")
            for a in state()["pending"]:
                post_json(sigil.ui + "/api/reject", {"id": a["id"]}, ui_headers)
            poll(ui, "document.querySelectorAll('#pending article').length === 0")

            # Throttled strangers
            refused = 0
            for k in range(120):
                status, _ = post_json(sigil.gateway + "/v1/request", {"id": str(k), "message": "pub(accounts.list)", "request": {}},
                                      {"Origin": f"https://p{k % 4}.flood.example", "X-Sigil-Session": "floodsession1"})
                refused += status == 429
            check(refused > 0, f"the flood is throttled ({refused} refused)")
            poll(ui, "!document.getElementById('throttled').hidden")
            check("flood.example" in ui.locator("#throttled").inner_text(), "the throttled line names the owner")
            page.state("throttled", show="#pending-heading")

            # Connected sites: Revoke asks once
            site = ui.locator(f'li[data-site="{origin}"]')
            site.get_by_role("button", name=f"Revoke {origin}").click()
            check(site.get_by_role("button", name="Yes, revoke").is_visible()
                  and any(s["source"] == origin for s in state()["sites"]), "Revoke asks first; the site stays connected")
            page.state("revoke-confirm", show="#sites-heading")
            site.get_by_role("button", name="Cancel: keep").click()
            check(any(s["source"] == origin for s in state()["sites"]), "Cancel keeps the site")
            site.get_by_role("button", name=f"Revoke {origin}").click()
            site.get_by_role("button", name="Yes, revoke").click()
            poll(ui, "o => ![...document.querySelectorAll('li[data-site]')].some(l => l.dataset.site === o)", origin)
            check(all(s["source"] != origin for s in state()["sites"]), "Yes, revoke disconnects the site")

            # History
            poll(ui, "document.querySelectorAll('#history li').length > 0")
            ui.locator("#history li summary").first.click()
            page.state("history", show="#history-heading")
            browser.close()
    finally:
        dapp_server.shutdown()
        sigil.stop()
    print(f"approval UX: {len(page.states)} states checked and photographed into {shots} "
          f"({time.monotonic() - started:.0f} s): {', '.join(page.states)}")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print("FAILED:", e, file=sys.stderr)
        sys.exit(1)
