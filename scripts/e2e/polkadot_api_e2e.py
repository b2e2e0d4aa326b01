"""The real polkadot-js dapp stack through Sigil, in Chromium (issue 25, run by scripts/test.d/70-e2e-browser.sh).

A dapp page on another origin loads the polkadot-js browser bundles from ../shared/vendor/polkadot-js
(@polkadot/api 16.5, types, util-crypto, keyring, extension-dapp; loaded from there, never copied) and
Sigil's bridge, and does what a polkadot-js dapp does: `web3Enable`, `web3FromAddress`,
`ApiPromise.create({provider: new HttpProvider(node)})`, then
`api.tx.balances.transferKeepAlive(dest, value).signAsync(address, {signer})`, decodes what Sigil
returned with `api.createType('Extrinsic', …)` and submits it with `author_submitExtrinsic`.

The node is PolkadotTestDoubleNode (scripts/interop/polkadot_test_double_node.py), a TEST DOUBLE: it
serves metadata, runtime version, genesis hash and a block header, and accepts the extrinsic only
after decoding it with scalecodec and verifying its sr25519 signature with schnorrkel.

A person connects the site and approves the transfer on Sigil's approval page (its visible buttons);
a second transfer is rejected there and the dapp gets polkadot-js's "Cancelled" with nothing submitted.
"""
import argparse
import pathlib
import sys

from playwright.sync_api import sync_playwright
from scalecodec.utils.ss58 import ss58_decode, ss58_encode

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "interop"))
from e2e_browser import ALICE, ALICE_PUB, approval_article, check, poll, serve_dapp  # noqa: E402
from polkadot_test_double_node import PolkadotTestDoubleNode  # noqa: E402
from polkadot_vendor import vendor_ready  # noqa: E402
from sigil_process import SigilProcess  # noqa: E402

BOB = "5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty"
VALUE = 12_345_678_901  # 1.2345678901 DOT: an exact integer of planck all the way

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>polkadot-js dapp</title>
{scripts}<script src="{bridge}"></script></head><body><h1>polkadot-js dapp</h1>
<script>
window.transfer = async (nodeUrl, address, dest, value) => {{
  const {{ web3Enable, web3FromAddress }} = polkadotExtensionDapp;
  const {{ ApiPromise, HttpProvider }} = polkadotApi;
  const extensions = await web3Enable('polkadot-js api e2e');
  if (!extensions.some(e => e.name === 'sigil')) throw new Error('no sigil extension: ' + extensions.map(e => e.name));
  const injector = await web3FromAddress(address);
  window.api = window.api || await ApiPromise.create({{ provider: new HttpProvider(nodeUrl), noInitWarn: true }});
  const api = window.api;
  if (!window.metadataShared) {{
    // As polkadot-js apps' "Update metadata": the chain's own metadata, offered to the extension so
    // that it can show the call in words.
    const props = api.registry.getChainProperties();
    window.metadataShared = await injector.metadata.provide({{
      chain: (await api.rpc.system.chain()).toString(), genesisHash: api.genesisHash.toHex(), icon: 'polkadot',
      ss58Format: api.registry.chainSS58, specVersion: api.runtimeVersion.specVersion.toNumber(),
      tokenDecimals: props.tokenDecimals.unwrap()[0].toNumber(), tokenSymbol: props.tokenSymbol.unwrap()[0].toString(),
      types: {{}}, rawMetadata: api.runtimeMetadata.toHex(),
    }});
  }}
  const tx = api.tx.balances.transferKeepAlive(dest, BigInt(value));
  // nonce -1: the node's next index (system_accountNextIndex), as dapps that queue transactions ask.
  await tx.signAsync(address, {{ signer: injector.signer, nonce: -1 }});
  const hex = tx.toHex();
  const decoded = api.createType('Extrinsic', hex);
  const submitted = await api.rpc.author.submitExtrinsic(hex);
  return {{
    hex, submitted: submitted.toHex(), txHash: tx.hash.toHex(), isSigned: decoded.isSigned,
    signer: decoded.signer.toString(), call: decoded.method.section + '.' + decoded.method.method,
    dest: decoded.method.args[0].toString(), value: decoded.method.args[1].toBigInt().toString(),
    nonce: decoded.nonce.toNumber(), tip: decoded.tip.toBigInt().toString(), sigType: decoded.signature.toString().length,
    genesis: api.genesisHash.toHex(), spec: api.runtimeVersion.specVersion.toNumber(),
  }};
}};
</script></body></html>"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sigil", required=True)
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args()
    # The team's vendored dapp libraries (polkadot_vendor.py: ../shared/vendor beside the clone,
    # SIGIL_VENDOR_DIR elsewhere), served from there, never copied into the project.
    if not vendor_ready("polkadot-api e2e"):
        return

    node = PolkadotTestDoubleNode(nonces={ALICE: 7})
    sigil = SigilProcess(args.sigil)
    server, url = serve_dapp(sigil.bridge_url, PAGE, vendor=True)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
            context = browser.new_context()
            context.set_default_timeout(20000)
            ui = context.new_page()
            ui.goto(sigil.approval_url)
            poll(ui, "document.getElementById('status').textContent === 'Live'")
            dapp = context.new_page()
            errors = []
            dapp.on("pageerror", lambda e: errors.append(str(e)))
            dapp.on("console", lambda m: errors.append(m.type + ": " + m.text) if m.type in ("error", "warning") else None)
            dapp.goto(url)
            check(dapp.evaluate("typeof polkadotApi.ApiPromise === 'function' && typeof polkadotExtensionDapp.web3Enable === 'function'"),
                  "the page runs the real @polkadot/api and @polkadot/extension-dapp bundles")

            run = """([node, from, to, value]) => { window.result = null; window.transfer(node, from, to, value)
                .then(r => { window.result = r }, e => { window.result = 'error: ' + (e && e.message || e) }) }"""
            dapp.evaluate(run, [node.url, ALICE, BOB, str(VALUE)])
            # web3Enable → the connection, approved by a person with only Alice ticked.
            auth = approval_article(ui, "authorize")
            auth.locator(f'input[value="0x{ALICE_PUB.hex()}"]').check()
            auth.get_by_role("button", name="Approve").click()
            # metadata.provide → the metadata update, approved on the page.
            approval_article(ui, "metadata").get_by_role("button", name="Approve").click()
            # signAsync → Sigil's signer → the transfer, approved on the page.
            try:
                tx = approval_article(ui, "extrinsic")
            except AssertionError:
                print("dapp:", dapp.evaluate("String(window.result)"), errors, "node asked:", node.calls, file=sys.stderr)
                raise
            headline = tx.get_by_role("heading").first.inner_text()
            check(headline.startswith("Send 1.2345678901 DOT from Alice to "),
                  f"the person reads the transfer in words, from the metadata the dapp shared: {headline!r}")
            tx.get_by_role("button", name="Approve").click()
            result = poll(dapp, "window.result", timeout=30)
            check(isinstance(result, dict), f"signAsync and submitExtrinsic resolve in the dapp: {result!r} {errors}")
            # The api shows addresses in the chain's own format (Polkadot: prefix 0).
            polkadot = lambda address: ss58_encode(ss58_decode(address), ss58_format=0)  # noqa: E731
            check(result["isSigned"] and result["signer"] == polkadot(ALICE) and result["call"] == "balances.transferKeepAlive"
                  and result["dest"] == polkadot(BOB) and result["value"] == str(VALUE) and result["nonce"] == 7,
                  "the dapp decodes Sigil's extrinsic with api.createType('Extrinsic'): signed by Alice, "
                  f"balances.transferKeepAlive to Bob of exactly {VALUE} planck, nonce 7 from the node")
            check(len(node.accepted) == 1 and node.accepted[0]["hex"] == result["hex"],
                  f"the test-double node accepted exactly that extrinsic after decoding it with scalecodec and "
                  f"verifying its sr25519 signature with schnorrkel (refused: {node.refused})")
            accepted = node.accepted[0]
            check(accepted["signer"] == "0x" + ALICE_PUB.hex() and accepted["nonce"] == 7,
                  "scalecodec reads Alice's account id and nonce 7 from it")
            call_args = {a["name"]: a["value"] for a in accepted["call"]["call_args"]}
            check(accepted["call"]["call_module"] == "Balances" and call_args.get("value") == VALUE,
                  f"scalecodec reads Balances.transfer_keep_alive of {VALUE}: {accepted['call']}")
            check(result["submitted"] == accepted["hash"] == result["txHash"],
                  "the hash the node answered is the dapp's own hash of the transaction")

            # A rejected transfer: polkadot-js's "Cancelled", nothing submitted.
            dapp.evaluate(run, [node.url, ALICE, BOB, "1"])
            tx = approval_article(ui, "extrinsic")
            tx.get_by_role("button", name="Reject").click()
            try:
                outcome = poll(dapp, "window.result && typeof window.result === 'string' && window.result")
            except AssertionError:
                print("dapp:", dapp.evaluate("JSON.stringify(window.result)"), errors[-3:], node.calls[-5:], file=sys.stderr)
                raise
            check("Cancelled" in outcome, f"a rejected signAsync fails with polkadot-js's Cancelled: {outcome!r}")
            check(len(node.accepted) == 1, "nothing more reached the node")
            browser.close()
    finally:
        sigil.stop()
        node.stop()
        server.shutdown()
    print("polkadot-api e2e: ok (@polkadot/api signAsync through Sigil, accepted by the test-double node)")


if __name__ == "__main__":
    main()
