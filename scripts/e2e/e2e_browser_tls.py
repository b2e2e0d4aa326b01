"""End-to-end over HTTPS in a real browser: Debian's chromium driven by Playwright.

A dapp page served over https (a Python https server with its own certificate, for `localhost`) loads
Sigil's bridge over https from `sigil serve --dev --auto-approve --tls-cert … --tls-key …` (a
certificate for the IP address 127.0.0.1, made by `sigil tls self-signed`), enables the `sigil`
extension through window.injectedWeb3, lists the accounts, signs bytes and a transaction payload;
the signatures are verified here with schnorrkel (py-sr25519-bindings) over bytes computed here.
Then, without --auto-approve, the approval page itself is used over https: a person's Approve click
there is a same-origin https POST. Run by scripts/test.d/72-e2e-browser-tls.sh.

How the browser trusts the certificates (real and narrow; never `ignore_https_errors` nor
`--ignore-certificate-errors`): each browser run gets a throw-away HOME whose NSS database
($HOME/.pki/nssdb, where Chromium on Linux reads locally trusted certificates) holds exactly the
certificates that run trusts, added with `certutil -t P,,` (a trusted peer: this certificate only,
it can sign nothing else). This is what an operator does to trust a self-signed gateway on a Linux
desktop, and the browser does full verification: name/IP match, validity, key usage. (The
alternative, `--ignore-certificate-errors-spki-list`, is a test-only switch that bypasses the
verifier for one key; it would not show that the certificate `sigil tls self-signed` writes is one a
browser accepts.)

Negative check first: a HOME trusting only the dapp's certificate loads the dapp page, but the bridge
fails with net::ERR_CERT_AUTHORITY_INVALID and no wallet appears.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import sr25519
from playwright.sync_api import sync_playwright

from e2e_browser import (ALICE, ALICE_PUB, BOB_PUB, POLKADOT_EXTENSIONS, POLKADOT_GENESIS, approval_article,
                         check, compact, poll, polkadot_payload_bytes, serve_dapp)
from sigil_process import SigilProcess

DAPP_HTML = """<!doctype html><html><head><meta charset="utf-8"><title>https dapp</title>
<script>window.results = {{}};</script>
<script src="{bridge}"></script></head><body><h1>https dapp</h1></body></html>"""


def make_certificate(binary, host, directory):
    """`sigil tls self-signed --host HOST`; returns (certificate, key) paths."""
    os.makedirs(directory, exist_ok=True)
    subprocess.run([binary, "tls", "self-signed", "--host", host, "--out-dir", directory],
                   check=True, capture_output=True, timeout=30)
    return os.path.join(directory, f"{host}.cert.pem"), os.path.join(directory, f"{host}.key.pem")


def home_trusting(directory, certificates):
    """A throw-away HOME whose NSS database trusts exactly `certificates` (name -> PEM path)."""
    nssdb = os.path.join(directory, ".pki", "nssdb")
    os.makedirs(nssdb)
    subprocess.run(["certutil", "-N", "-d", f"sql:{nssdb}", "--empty-password"], check=True, capture_output=True)
    for name, path in certificates.items():
        subprocess.run(["certutil", "-A", "-d", f"sql:{nssdb}", "-n", name, "-t", "P,,", "-i", path],
                       check=True, capture_output=True)
    listed = subprocess.run(["certutil", "-L", "-d", f"sql:{nssdb}"], check=True, capture_output=True,
                            text=True).stdout
    assert all(name in listed for name in certificates), listed
    return directory


def launch(p, chromium, home):
    env = dict(os.environ, HOME=home)
    return p.chromium.launch(executable_path=chromium, args=["--no-sandbox"], env=env)


def check_untrusted(p, chromium, home, dapp_url, bridge_url):
    browser = launch(p, chromium, home)
    try:
        page = browser.new_context().new_page()
        failures = []
        page.on("requestfailed", lambda r: failures.append((r.url, r.failure)))
        response = page.goto(dapp_url)
        check(response is not None and response.ok, "the https dapp page itself loads (its certificate is trusted)")
        poll(page, "() => document.readyState === 'complete'")
        check((bridge_url, "net::ERR_CERT_AUTHORITY_INVALID") in failures,
              f"without trusting Sigil's certificate the bridge fails: {failures}")
        check(page.evaluate("window.injectedWeb3 === undefined"), "and no wallet is injected")
    finally:
        browser.close()


def check_trusted(p, chromium, home, dapp_url):
    browser = launch(p, chromium, home)
    try:
        context = browser.new_context()
        context.set_default_timeout(15000)
        dapp = context.new_page()
        dapp.goto(dapp_url)
        check(dapp.evaluate("location.protocol") == "https:" and dapp.evaluate("window.isSecureContext"),
              "the dapp page is a secure https context")
        poll(dapp, "() => !!(window.injectedWeb3 && window.injectedWeb3.sigil)")
        check(dapp.evaluate("typeof window.injectedWeb3.sigil.enable === 'function'"),
              "the bridge loaded over https defines injectedWeb3.sigil")
        dapp.evaluate("""() => { window.enabling = window.injectedWeb3.sigil.enable('TLS Dapp')
            .then(i => { window.ext = i; return 'ok'; }, e => 'error: ' + e.message) }""")
        check(poll(dapp, "window.enabling") == "ok", "enable resolves (--auto-approve) over https")
        accounts = dapp.evaluate("window.ext.accounts.get()")
        check(accounts[0]["address"] == ALICE and accounts[0]["type"] == "sr25519",
              f"accounts.get lists the dev accounts over https ({len(accounts)}), //Alice first")

        dapp.evaluate("""() => { window.raw = window.ext.signer.signRaw(
            {address: '%s', data: 'hello over https', type: 'bytes'}) }""" % ALICE)
        raw = poll(dapp, "window.raw")
        rsig = bytes.fromhex(raw["signature"][2:])
        check(len(rsig) == 64 and sr25519.verify(rsig, b"<Bytes>hello over https</Bytes>", ALICE_PUB),
              "signRaw over https: schnorrkel verifies over <Bytes>hello over https</Bytes>")

        method = bytes.fromhex("0503") + b"\x00" + BOB_PUB + compact(10_000_000_000)
        block_hash = bytes.fromhex("cd" * 32)
        payload = {
            "address": ALICE, "assetId": None, "blockHash": "0x" + block_hash.hex(), "blockNumber": "0x014fb1fb",
            "era": "0xb503", "genesisHash": "0x" + POLKADOT_GENESIS, "metadataHash": None,
            "method": "0x" + method.hex(), "mode": 0, "nonce": "0x00000003",
            "signedExtensions": POLKADOT_EXTENSIONS, "specVersion": "0x000f5d99",
            "tip": "0x00000000000000000000000000000000", "transactionVersion": "0x0000001a", "version": 4,
        }
        dapp.evaluate("p => { window.signing = window.ext.signer.signPayload(p) }", payload)
        result = poll(dapp, "window.signing")
        sig = bytes.fromhex(result["signature"][2:])
        signed = polkadot_payload_bytes(method, bytes.fromhex("b503"), 3, 0, 1007001, 26,
                                        bytes.fromhex(POLKADOT_GENESIS), block_hash)
        check(len(sig) == 65 and sig[0] == 1 and sr25519.verify(sig[1:], signed, ALICE_PUB),
              "signPayload over https: MultiSignature::Sr25519 verifies over the exact payload bytes")
    finally:
        browser.close()


def check_approval_page(p, chromium, home, dapp_url, dapp_origin, sigil):
    """Without --auto-approve: the approval page over https, Approve clicked by a 'person'."""
    browser = launch(p, chromium, home)
    try:
        context = browser.new_context()
        context.set_default_timeout(15000)
        ui = context.new_page()
        ui.goto(sigil.approval_url)
        check(ui.evaluate("location.protocol") == "https:", "the approval page is served over https")
        poll(ui, "document.getElementById('status').textContent === 'Live'")
        check(True, "the approval page's event stream is live over https")
        dapp = context.new_page()
        dapp.goto(dapp_url)
        poll(dapp, "() => !!(window.injectedWeb3 && window.injectedWeb3.sigil)")
        dapp.evaluate("""() => { window.enabling = window.injectedWeb3.sigil.enable('TLS Dapp')
            .then(i => { window.ext = i; return 'ok'; }, e => 'error: ' + e.message) }""")
        auth = approval_article(ui, "authorize")
        check(dapp_origin in auth.get_by_role("heading").inner_text(), "the authorization names the https origin")
        boxes = auth.locator('input[type="checkbox"]')
        # Nothing is ticked at first (least privilege, issue 16): tick Alice only.
        for i in range(boxes.count()):
            if boxes.nth(i).get_attribute("value") == "0x" + ALICE_PUB.hex():
                boxes.nth(i).check()
        auth.get_by_role("button", name="Approve").click()
        check(poll(dapp, "window.enabling") == "ok", "Approve on the https approval page connects the site")
        dapp.evaluate("""() => { window.raw = window.ext.signer.signRaw(
            {address: '%s', data: 'approved over https', type: 'bytes'}) }""" % ALICE)
        approval_article(ui, "bytes").get_by_role("button", name="Approve").click()
        raw = poll(dapp, "window.raw")
        rsig = bytes.fromhex(raw["signature"][2:])
        check(sr25519.verify(rsig, b"<Bytes>approved over https</Bytes>", ALICE_PUB),
              "a message approved on the https approval page: the signature verifies")
    finally:
        browser.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sigil", required=True)
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as work:
        sigil_cert, sigil_key = make_certificate(args.sigil, "127.0.0.1", os.path.join(work, "sigil"))
        dapp_cert, dapp_key = make_certificate(args.sigil, "localhost", os.path.join(work, "dapp"))
        untrusting = home_trusting(os.path.join(work, "home-dapp-only"), {"dapp": dapp_cert})
        trusting = home_trusting(os.path.join(work, "home-both"), {"dapp": dapp_cert, "sigil": sigil_cert})
        tls = ["--tls-cert", sigil_cert, "--tls-key", sigil_key]
        with sync_playwright() as p:
            sigil = SigilProcess(args.sigil, "--auto-approve", *tls)
            dapp_server = None
            try:
                check(sigil.bridge_url.startswith("https://127.0.0.1:"), "serve prints an https bridge URL")
                dapp_server, dapp_url = serve_dapp(sigil.bridge_url, DAPP_HTML, tls=(dapp_cert, dapp_key))
                check_untrusted(p, args.chromium, untrusting, dapp_url, sigil.bridge_url)
                check_trusted(p, args.chromium, trusting, dapp_url)
            finally:
                if dapp_server:
                    dapp_server.shutdown()
                sigil.stop()
            sigil = SigilProcess(args.sigil, *tls)
            dapp_server = None
            try:
                dapp_server, dapp_url = serve_dapp(sigil.bridge_url, DAPP_HTML, tls=(dapp_cert, dapp_key))
                check_approval_page(p, args.chromium, trusting, dapp_url, dapp_url.rstrip("/"), sigil)
            finally:
                if dapp_server:
                    dapp_server.shutdown()
                sigil.stop()
    print("e2e browser over TLS: all checks passed")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print("FAILED:", e, file=sys.stderr)
        sys.exit(1)
