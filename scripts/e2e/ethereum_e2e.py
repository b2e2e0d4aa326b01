"""An EVM dapp through Sigil in Chromium (issue 23; run by scripts/test.d/75-e2e-ethereum.sh).

A dapp page on another origin loads ethers v6 from ../shared/vendor/ethers (or SIGIL_VENDOR_DIR; loaded
from there, never copied) and Sigil's bridge.js, next to a decoy wallet that already holds
window.ethereum. Like an EVM dapp it finds Sigil through EIP-6963 (`ethers.BrowserProvider.discover`,
filtered by rdns `dev.sigil`), then with `ethers.BrowserProvider`:

  * connects (`getSigner()`: eth_requestAccounts, approved on the approval page by clicking);
  * `signer.signMessage` and an EIP-2612 Permit with `signer.signTypedData`: both signatures recovered
    in Python with eth-account (`recover_message`, `encode_defunct`, `encode_typed_data`);
  * an EIP-1559 ETH transfer (`signer.sendTransaction`) and an ERC-20 `transfer` (`ethers.Contract`) to the
    TEST CHAIN (scripts/interop/ethereum_test_chain.py: eth-tester + py-evm, which decodes every raw
    transaction with eth-account/pyrlp and recovers its sender before mining it): mined, balances moved by
    exactly the approved amounts, the receipt's hash is the one the dapp got;
  * a rejected eth_sendTransaction gives 4001 and nothing reaches the chain (nonce unchanged);
  * a page of a never-granted origin gets [] from eth_accounts and 4100 for personal_sign and
    eth_sendTransaction, with no approval shown;
  * the provider's events: connect {chainId}, accountsChanged; wallet_revokePermissions → the gateway's
    ethereum.accountsChanged [] on the tab's event stream → accountsChanged []; with the gateway gone,
    requests fail with 4900 and `disconnect` fires;
  * the userscript (Sigil's own, from the approval port, with AS = ['ethereum']) on a page whose CSP
    forbids the gateway, beside the decoy wallet: window.ethereum is Sigil's, connect, personal_sign, a
    rejection (4001) and the revocation's event, all relayed through GM_xmlhttpRequest and /v1/poll.

The approval page of each state (connect, message, permit, transaction, token transfer) is checked with
axe-core at 390 and 1280 px and photographed into --screenshots (e2e_approval_ux.Page); with
--quick-ux instead (the fast tier), axe-core at 1280 px and no horizontal scroll at 390 px, no photographs.

`--standin` runs the same dapp flow against GatewayStandIn below instead of `sigil serve`: a TEST DOUBLE
of the gateway's POST /v1/ethereum and /v1/events contract (it signs with eth-account and decides as the
test says, no approval page), to check bridge.js's provider and this script on their own.
"""
import argparse
import json
import os
import pathlib
import queue
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, SimpleHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

from eth_account import Account
from eth_account.messages import encode_defunct, encode_typed_data
from eth_utils import to_checksum_address
from playwright.sync_api import sync_playwright

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "interop"))
from e2e_browser import FAKE_GM, ROOT, check, http, poll  # noqa: E402
from ethereum_test_chain import MNEMONIC, DEV_PATH, TOKEN_NAME, EthereumTestChain  # noqa: E402
from sigil_process import SigilProcess  # noqa: E402

VENDOR = pathlib.Path(os.environ.get("SIGIL_VENDOR_DIR") or ROOT.parent / "shared" / "vendor") / "ethers"
ETHERS = "ethers.umd.min.js"
Account.enable_unaudited_hdwallet_features()
ACCOUNT0, ACCOUNT1 = (Account.from_mnemonic(MNEMONIC, account_path=f"{DEV_PATH}/{i}") for i in (0, 1))
assert ACCOUNT0.address == "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
CHAIN_ID = 1337
ETH_VALUE = 12_345_678_901_234_567          # wei: 0.012345678901234567 ETH, exact all the way
TOKEN_VALUE = 1_500_000_000_000_000_000     # 1.5 STT
MESSAGE = "Hello, Sigil!"
PERMIT_VALUE, PERMIT_DEADLINE = 1_000_000, 1_893_456_000

# A wallet that got there first: it holds window.ethereum and answers EIP-6963 too (it must keep
# window.ethereum, and discovery must still find Sigil by its rdns).
DECOY = """<script>
window.ethereum = { isDecoy: true, request: async () => { throw Object.assign(new Error('decoy'), { code: 4200 }); }, on() {}, removeListener() {} };
window.addEventListener('eip6963:requestProvider', () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider',
  { detail: Object.freeze({ info: { uuid: '00000000-0000-4000-8000-000000000000', name: 'Decoy', rdns: 'org.example.decoy',
    icon: 'data:image/svg+xml;base64,PHN2Zy8+' }, provider: window.ethereum }) })));
</script>"""

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>EVM dapp</title>
<script src="/vendor/{ethers}"></script>{decoy}<script src="{bridge}"></script></head><body><h1>EVM dapp</h1>
<script>
window.results = {{}}; window.events = []; window.announced = [];
window.addEventListener('eip6963:announceProvider', (e) => window.announced.push(e.detail.info));
const errorOf = (e) => ({{ code: e && e.code, message: String(e && e.message || e), rpc: e && e.info && e.info.error && e.info.error.code }});
window.run = (name, fn) => {{ window.results[name] = null;
  fn().then((value) => {{ window.results[name] = {{ value }}; }}, (e) => {{ window.results[name] = {{ error: errorOf(e) }}; }}); }};
window.find = () => window.run('find', async () => {{
  // EIP-6963, as ethers does it: requestProvider, collect announcements for 300 ms, pick by rdns.
  const provider = await ethers.BrowserProvider.discover({{ filter: (found) => found.find((i) => i.rdns === 'dev.sigil') }});
  if (!provider) throw new Error('no EIP-6963 wallet announced itself');
  window.provider = provider;
  const info = provider.providerInfo;
  return {{ info, decoyKept: !!(window.ethereum && window.ethereum.isDecoy), ethereumIsSigil: !!(window.ethereum && window.ethereum.isSigil) }};
}});
window.raw = (method, params) => new Promise((ok) => {{
  // the announced EIP-1193 object itself, as a dapp without ethers would use it
  const once = (e) => {{ if (e.detail.info.rdns === 'dev.sigil') {{ window.removeEventListener('eip6963:announceProvider', once);
    ok(e.detail.provider); }} }};
  window.addEventListener('eip6963:announceProvider', once);
  window.dispatchEvent(new Event('eip6963:requestProvider'));
}}).then((p) => {{
  if (!window.listening) {{ window.listening = true;
    for (const ev of ['connect', 'disconnect', 'chainChanged', 'accountsChanged', 'message'])
      p.on(ev, (arg) => window.events.push([ev, arg && arg.code !== undefined ? {{ code: arg.code, message: arg.message }} : arg])); }}
  return p.request({{ method, params }});
}});
window.connect = () => window.run('connect', async () => {{
  await window.raw('eth_chainId', []);  // subscribes to the provider's events first
  window.signer = await window.provider.getSigner();
  return {{ address: await window.signer.getAddress(), chainId: (await window.provider.getNetwork()).chainId.toString() }};
}});
window.signMessage = (text) => window.run('message', () => window.signer.signMessage(text));
window.signPermit = (domain, value) => window.run('permit', () => window.signer.signTypedData(domain, {{ Permit: [
  {{ name: 'owner', type: 'address' }}, {{ name: 'spender', type: 'address' }}, {{ name: 'value', type: 'uint256' }},
  {{ name: 'nonce', type: 'uint256' }}, {{ name: 'deadline', type: 'uint256' }}] }}, value));
window.sendEth = (to, wei) => window.run('eth', async () => {{
  const tx = await window.signer.sendTransaction({{ to, value: BigInt(wei), type: 2 }});
  const receipt = await tx.wait();
  return {{ hash: tx.hash, receiptHash: receipt.hash, status: receipt.status, type: tx.type, block: receipt.blockNumber }};
}});
window.sendToken = (token, to, amount) => window.run('token', async () => {{
  const erc20 = new ethers.Contract(token, ['function transfer(address to, uint256 amount) returns (bool)',
    'function symbol() view returns (string)', 'function decimals() view returns (uint8)'], window.signer);
  const symbol = await erc20.symbol(); const decimals = Number(await erc20.decimals());
  const tx = await erc20.transfer(to, BigInt(amount));
  const receipt = await tx.wait();
  return {{ hash: tx.hash, receiptHash: receipt.hash, status: receipt.status, logs: receipt.logs.length, symbol, decimals }};
}});
window.rawRun = (name, method, params) => window.run(name, () => window.raw(method, params));
</script></body></html>"""


def serve_dapp(bridge_url, decoy, relay_to=None):
    """The dapp on an origin of its own: the page, and the vendored ethers under /vendor/. With
    `relay_to` (a gateway URL) the page has no bridge tag and a CSP that forbids the gateway (the
    userscript brings the bridge), and POST /__gm performs the userscript manager's GM_xmlhttpRequest."""
    html = PAGE.format(ethers=ETHERS, decoy=DECOY if decoy else "", bridge=bridge_url).encode()
    if relay_to:
        html = html.replace(f'<script src="{bridge_url}"></script>'.encode(), b"")

    class Handler(SimpleHTTPRequestHandler):
        def do_POST(self):  # the userscript manager's side of GM_xmlhttpRequest (e2e_browser.FAKE_GM)
            req = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            if not relay_to or not req["url"].startswith(relay_to + "/"):
                self.send_error(403)
                return
            data = req.get("data")
            status, body = http(req["method"], req["url"], req.get("headers") or {},
                                data.encode() if data is not None else None, timeout=120)
            out = json.dumps({"status": status, "responseText": body.decode()}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(out)))
            self.end_headers()
            self.wfile.write(out)

        def do_GET(self):
            if self.path == f"/vendor/{ETHERS}":
                body, kind = (VENDOR / ETHERS).read_bytes(), "text/javascript"
            elif self.path == "/":
                body, kind = html, "text/html; charset=utf-8"
            else:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", kind)
            if relay_to:
                self.send_header("Content-Security-Policy", "default-src 'self'; script-src 'self' 'unsafe-inline'")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    class Server(ThreadingHTTPServer):
        def handle_error(self, request, client_address):
            pass  # the userscript's page closed while a relayed long-poll was held (end of its test)

    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


class GatewayStandIn:
    """A TEST DOUBLE of Sigil's Ethereum contract (no approval page, not Sigil): /bridge.js from public/,
    POST /v1/ethereum (JSON-RPC 2.0; the reply waits for the test's decision), GET /v1/events (SSE, the
    `hello` event and `ethereum.accountsChanged`). It signs with eth-account as account 0 of the dev
    mnemonic and forwards reads to the test chain. Used by --standin only."""

    SIGNING = ("eth_requestAccounts", "personal_sign", "eth_signTypedData_v4", "eth_sendTransaction")

    def __init__(self, chain):
        self.chain, self.granted, self.pending, self.streams, self.polled = chain, set(), [], {}, 0
        self.connected = []  # every origin ever granted
        self.lock = threading.Condition()
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def cors(self):
                self.send_header("Access-Control-Allow-Origin", self.headers.get("Origin") or "*")
                self.send_header("Access-Control-Allow-Headers", "Content-Type, X-Sigil-Session")
                self.send_header("Access-Control-Allow-Methods", "POST, GET")

            def do_OPTIONS(self):
                self.send_response(204)
                self.cors()
                self.end_headers()

            def do_GET(self):
                url = urlparse(self.path)
                if url.path == "/bridge.js":
                    body = (ROOT / "public" / "bridge.js").read_bytes()
                    self.send_response(200)
                    self.send_header("Content-Type", "text/javascript")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                elif url.path == "/v1/poll":  # the userscript's long-poll twin of /v1/events
                    session = parse_qs(url.query).get("session", [""])[0]
                    events = standin.streams.setdefault(session, queue.Queue())
                    batch = []
                    try:
                        batch.append(events.get(timeout=5))
                    except queue.Empty:
                        pass
                    standin.polled += len(batch)
                    body = json.dumps({"server": "standin", "events": [
                        {"eventId": str(standin.polled - len(batch) + i + 1), "data": d} for i, d in enumerate(batch)]}).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                elif url.path == "/v1/events":
                    session = parse_qs(url.query).get("session", [""])[0]
                    events = standin.streams.setdefault(session, queue.Queue())
                    self.send_response(200)
                    self.cors()
                    self.send_header("Content-Type", "text/event-stream")
                    self.end_headers()
                    self.wfile.write(b'event: hello\ndata: {"server":"standin"}\n\n')
                    self.wfile.flush()
                    while True:
                        try:
                            data = events.get(timeout=15)
                        except queue.Empty:
                            data = None
                        try:
                            self.wfile.write(b": keep-alive\n\n" if data is None else f"data: {json.dumps(data)}\n\n".encode())
                            self.wfile.flush()
                        except OSError:
                            return
                else:
                    self.send_error(404)

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
                try:
                    origin = self.headers.get("X-Sigil-Relay-Origin") or self.headers.get("Origin")
                    reply = standin.handle(origin, self.headers.get("X-Sigil-Session"), body)
                except Exception as e:  # a broken stand-in says so instead of looking like a lost gateway
                    reply = {"jsonrpc": "2.0", "id": body.get("id"), "error": {"code": -32603, "message": repr(e)}}
                data = json.dumps(reply).encode()
                self.send_response(200)
                self.cors()
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.gateway = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.bridge_url = self.gateway + "/bridge.js"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def push(self, event):
        for stream in list(self.streams.values()):
            stream.put(event)

    def decide(self, method, approve, timeout=30):
        """The person's part: the oldest waiting request must be `method`; approve or reject it."""
        with self.lock:
            if not self.lock.wait_for(lambda: any(p["decision"] is None for p in self.pending), timeout):
                raise AssertionError(f"no {method} request reached the stand-in")
            request = next(p for p in self.pending if p["decision"] is None)
            check(request["method"] == method, f"the stand-in holds {method} for a decision")
            request["decision"] = approve
            self.lock.notify_all()

    def handle(self, origin, session, body):
        rid, method, params = body.get("id"), body.get("method"), body.get("params") or []
        fail = lambda code, message: {"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}}  # noqa: E731
        address = ACCOUNT0.address.lower()
        if method == "eth_accounts":
            return {"jsonrpc": "2.0", "id": rid, "result": [address] if origin in self.granted else []}
        if method == "wallet_revokePermissions":
            self.granted.discard(origin)
            self.push({"id": "ethereum.accountsChanged", "subscription": []})
            return {"jsonrpc": "2.0", "id": rid, "result": None}
        if method in ("eth_sign", "eth_signTransaction"):
            return fail(4200, f'The method "{method}" does not exist / is not available.')
        if method in self.SIGNING:
            if method != "eth_requestAccounts" and origin not in self.granted:
                return fail(4100, "The requested account and/or method has not been authorized by the user.")
            with self.lock:
                request = {"method": method, "decision": None}
                self.pending.append(request)
                self.lock.notify_all()
                self.lock.wait_for(lambda: request["decision"] is not None)
            if not request["decision"]:
                return fail(4001, "User rejected the request.")
            if method == "eth_requestAccounts":
                self.granted.add(origin)
                self.connected.append(origin)
                self.streams.setdefault(session, queue.Queue()).put({"id": "ethereum.accountsChanged", "subscription": [address]})
                result = [address]
            elif method == "personal_sign":
                result = "0x" + ACCOUNT0.sign_message(encode_defunct(hexstr=params[0])).signature.hex()
            elif method == "eth_signTypedData_v4":
                result = "0x" + ACCOUNT0.sign_message(encode_typed_data(full_message=json.loads(params[1]))).signature.hex()
            else:
                tx, t = params[0], self.chain.tester
                base = t.get_block_by_number("latest")["base_fee_per_gas"]
                fields = {"type": 2, "chainId": CHAIN_ID, "nonce": t.get_nonce(ACCOUNT0.address), "to": to_checksum_address(tx["to"]),
                          "value": int(tx.get("value", "0x0"), 16), "data": tx.get("data", "0x"),
                          "gas": int(tx["gas"], 16), "maxFeePerGas": 2 * base + 10 ** 9, "maxPriorityFeePerGas": 10 ** 9}
                raw = "0x" + ACCOUNT0.sign_transaction(fields).raw_transaction.hex()
                return self.chain.handle({"jsonrpc": "2.0", "id": rid, "method": "eth_sendRawTransaction", "params": [raw]})
            return {"jsonrpc": "2.0", "id": rid, "result": result}
        return self.chain.handle(body)  # reads go to the chain, as the gateway forwards them


class SigilApprovals:
    """The person at Sigil's approval page: finds the open request, checks and photographs it, clicks."""

    def __init__(self, ui, shots, quick=False):
        self.ui = ui
        self.page = None
        if shots is not None or quick:
            from e2e_approval_ux import Page  # axe-core + screenshots at 390 and 1280 px (quick: axe at 1280 px)
            self.page = Page(ui, None if quick else pathlib.Path(shots))

    def decide(self, state, approve, expect=()):
        selector = "#pending article[data-approval]:has(button.approve:not([disabled]))"
        try:
            poll(self.ui, "s => document.querySelector(s) !== null", selector, timeout=30)
        except AssertionError:
            raise AssertionError(f"no {state} approval appeared on the approval page")
        self.ui.bring_to_front()  # the person looks at the page (a background tab's click waits ~2 s)
        article = self.ui.locator(selector).first
        text = article.text_content()  # also what waits under Details
        for words in expect:
            check(words.lower() in text.lower(), f"the {state} approval shows {words!r}")
        boxes = article.locator("input[type=checkbox]")
        if approve and boxes.count():  # a connection: tick account 0 only (nothing is ticked to begin with)
            mine = [i for i in range(boxes.count())
                    if ACCOUNT0.address.lower()[2:10] in (boxes.nth(i).get_attribute("value") or "").lower()
                    or ACCOUNT0.address.lower()[2:6] in article.locator("label").nth(i).inner_text().lower()]
            boxes.nth(mine[0] if mine else 0).check()
        if self.page is not None and approve and not state.startswith("userscript-"):
            self.page.state(f"ethereum-{state}")
            article = self.ui.locator(selector).first
        article.locator("button.approve" if approve else "button.reject").click()


def userscript_for(gateway, text=None):
    """The userscript with AS = ['ethereum'] (the person's edit): Sigil's own (`text`, from the approval
    port), or public/sigil.user.js filled in as GatewayAssets.userscript does (for GatewayStandIn)."""
    if text is None:
        text = (ROOT / "public" / "sigil.user.js").read_text()
        text = text.replace("'__SIGIL_GATEWAY__'", json.dumps(gateway)).replace("'__SIGIL_RELAY_TOKEN__'", json.dumps("relay"))
        text = text.replace("'__SIGIL_BRIDGE_SOURCE__'", json.dumps((ROOT / "public" / "bridge.js").read_text()))
    assert "const AS = [];" in text and "__SIGIL_" not in text
    return text.replace("const AS = [];", "const AS = ['ethereum'];")


def check_userscript(browser, gateway, script, decide):
    """The userscript's postMessage transport for Ethereum: a page whose CSP forbids the gateway, a decoy
    wallet holding window.ethereum, the userscript configured to take it; its GM_xmlhttpRequest played by
    the dapp's own server (e2e_browser.FAKE_GM)."""
    server, url = serve_dapp(gateway + "/bridge.js", decoy=True, relay_to=gateway)
    try:
        context = browser.new_context()
        context.set_default_timeout(20000)
        context.add_init_script(FAKE_GM + "\n" + script)
        page = context.new_page()
        page.goto(url)
        check(page.evaluate("!!(window.ethereum && window.ethereum.isSigil)"),
              "userscript with AS = ['ethereum']: window.ethereum is Sigil's even beside another wallet")
        blocked = page.evaluate(f"fetch('{gateway}/bridge.js').then(() => 'reached', () => 'blocked')")
        check(blocked == "blocked", "the page's CSP forbids reaching the gateway directly")
        page.evaluate("window.find()")
        check(poll(page, "window.results.find")["value"]["info"]["rdns"] == "dev.sigil", "EIP-6963 finds Sigil")
        page.evaluate("window.connect()")
        decide("userscript-connect", "eth_requestAccounts", True, (url.rstrip("/"),))
        connected = poll(page, "window.results.connect", timeout=30)
        check(connected.get("value", {}).get("address") == ACCOUNT0.address,
              f"connected through the relay, as the tab's own origin: {connected}")
        page.evaluate("t => window.signMessage(t)", MESSAGE)
        decide("userscript-message", "personal_sign", True, (MESSAGE,))
        signature = poll(page, "window.results.message", timeout=30)["value"]
        check(Account.recover_message(encode_defunct(text=MESSAGE), signature=signature) == ACCOUNT0.address,
              "a relayed personal_sign recovers to account 0")
        page.evaluate("a => window.rawRun('no', 'personal_sign', ['0x6e6f', a])", ACCOUNT0.address.lower())
        decide("userscript-rejected", "personal_sign", False)
        check(poll(page, "window.results.no", timeout=30).get("error", {}).get("code") == 4001, "a relayed rejection: 4001")
        page.evaluate("() => window.rawRun('revoke', 'wallet_revokePermissions', [{eth_accounts: {}}])")
        poll(page, "window.events.some(e => e[0] === 'accountsChanged' && e[1].length === 0)", timeout=30)
        check(True, "the revocation's ethereum.accountsChanged [] arrives through the userscript's long-poll")
        context.close()
        return url.rstrip("/")
    finally:
        server.shutdown()


def verify_in_python(result, chain, before, token):
    """What the dapp got, checked against the test chain and eth-account."""
    t = chain.tester
    eth, tok = result["eth"], result["token"]
    check(eth["hash"] == eth["receiptHash"] and eth["status"] == 1 and eth["type"] == 2,
          f"the ETH transfer is mined (status 1, type 2): the receipt's hash is the dapp's {eth['hash']}")
    accepted = {a["hash"]: a for a in chain.accepted}
    sent = accepted.get(eth["hash"])
    check(sent is not None and sent["sender"] == ACCOUNT0.address and sent["type"] == 2 and sent["chainId"] == CHAIN_ID
          and sent["to"] == ACCOUNT1.address and sent["value"] == ETH_VALUE,
          "the test chain decoded it with eth-account and recovered account 0 as its sender: "
          f"EIP-1559, chain {CHAIN_ID}, {ETH_VALUE} wei to account 1")
    receipt = t.get_transaction_receipt(eth["hash"])
    fee = receipt["gas_used"] * receipt["effective_gas_price"]
    token_receipt = t.get_transaction_receipt(tok["hash"])
    token_fee = token_receipt["gas_used"] * token_receipt["effective_gas_price"]
    check(t.get_balance(ACCOUNT1.address) - before["eth1"] == ETH_VALUE,
          f"account 1's balance grew by exactly {ETH_VALUE} wei")
    check(before["eth0"] - t.get_balance(ACCOUNT0.address) == ETH_VALUE + fee + token_fee,
          "account 0's balance fell by exactly the value and the two fees")
    check(tok["hash"] == tok["receiptHash"] and tok["status"] == 1 and tok["logs"] == 1
          and tok["symbol"] == "STT" and tok["decimals"] == 18,
          "the ERC-20 transfer is mined with one Transfer event (symbol and decimals read by eth_call)")
    sent = accepted.get(tok["hash"])
    data = "0xa9059cbb" + ACCOUNT1.address[2:].lower().rjust(64, "0") + f"{TOKEN_VALUE:064x}"
    check(sent is not None and sent["to"] == token and sent["value"] == 0 and sent["data"] == data
          and sent["sender"] == ACCOUNT0.address, "the test chain accepted transfer(account 1, 1.5 STT) from account 0")
    balance = lambda who: int(t.call({"from": ACCOUNT0.address, "to": token,  # noqa: E731
                                      "data": "0x70a08231" + who[2:].lower().rjust(64, "0")}), 16)
    check(balance(ACCOUNT1.address) - before["stt1"] == TOKEN_VALUE and before["stt0"] - balance(ACCOUNT0.address) == TOKEN_VALUE,
          "token balances moved by exactly 1.5 STT")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sigil", help="the sigil binary (not needed with --standin)")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--screenshots", help="photograph the approval states here (docs/screenshots/)")
    ap.add_argument("--quick-ux", action="store_true",
                    help="instead of --screenshots: axe-core at 1280 px only, no photographs (the fast tier)")
    ap.add_argument("--standin", action="store_true", help="GatewayStandIn instead of sigil serve")
    args = ap.parse_args()
    if not (VENDOR / ETHERS).is_file():
        message = (f"the vendored ethers v6 is missing from {VENDOR}; it comes with ../shared beside the clone, "
                   f"or set SIGIL_VENDOR_DIR")
        if os.environ.get("SIGILTEST_REQUIRE_VENDOR") == "1":
            sys.exit(f"ethereum e2e: FAILED: {message} (CI requires it)")
        banner = "!" * 100
        print(f"{banner}\nethereum e2e: NOT RUN: {message}\n{banner}", file=sys.stderr)
        return
    if not args.standin and not args.sigil:
        ap.error("--sigil is required (or --standin)")

    chain = EthereumTestChain(CHAIN_ID)
    token = chain.token
    if args.standin:
        gateway = GatewayStandIn(chain)
    else:
        gateway = SigilProcess(args.sigil, "--eth-rpc", chain.url)
    dapp_server, dapp_url = serve_dapp(gateway.bridge_url, decoy=True)
    other_server, other_url = serve_dapp(gateway.bridge_url, decoy=False)
    t = chain.tester
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
            context = browser.new_context()
            context.set_default_timeout(20000)
            if args.standin:
                person = gateway
            else:
                ui = context.new_page()
                ui.goto(gateway.approval_url)
                poll(ui, "document.getElementById('status').textContent === 'Live'")
                person = SigilApprovals(ui, args.screenshots, quick=args.quick_ux and not args.screenshots)
            decide = (lambda state, method, approve, expect=(): gateway.decide(method, approve)) if args.standin else \
                (lambda state, method, approve, expect=(): person.decide(state, approve, expect))
            dapp = context.new_page()
            errors = []
            dapp.on("pageerror", lambda e: errors.append(str(e)))
            dapp.goto(dapp_url)
            wait = lambda name, timeout=60: poll(dapp, "n => window.results[n]", name, timeout=timeout)  # noqa: E731

            def value(name, timeout=60):
                r = wait(name, timeout)
                check("value" in r, f"{name} resolves in the dapp: {r}")
                return r["value"]

            # EIP-6963 discovery next to a wallet that holds window.ethereum.
            dapp.evaluate("window.find()")
            found = value("find")
            info = found["info"]
            check(info["rdns"] == "dev.sigil" and info["name"] == "Sigil" and info["icon"].startswith("data:image/svg+xml;base64,")
                  and len(info["uuid"]) == 36 and info["uuid"][14] == "4",
                  f"EIP-6963: ethers.BrowserProvider.discover finds Sigil by rdns dev.sigil (uuid v4 {info['uuid']})")
            check(found["decoyKept"], "window.ethereum stays the other wallet's (Sigil never takes it from one)")
            check(len({i["rdns"] for i in dapp.evaluate("window.announced")}) == 2, "both wallets answered requestProvider")

            # Connect: eth_requestAccounts approved on the page.
            dapp.evaluate("window.connect()")
            decide("connect", "eth_requestAccounts", True, ())
            connected = value("connect")
            check(connected["address"] == ACCOUNT0.address and connected["chainId"] == str(CHAIN_ID),
                  f"getSigner() after the approval: account 0 on chain {CHAIN_ID}")
            events = dapp.evaluate("window.events")
            check(["connect", {"chainId": hex(CHAIN_ID)}] in events, f"EIP-1193 connect {{chainId: {hex(CHAIN_ID)}}}")
            poll(dapp, "a => window.events.some(e => e[0] === 'accountsChanged' && e[1][0] === a)", ACCOUNT0.address.lower())
            check(True, "accountsChanged [account 0]")

            # personal_sign
            dapp.evaluate("t => window.signMessage(t)", MESSAGE)
            decide("message", "personal_sign", True, (MESSAGE,))
            signature = value("message")
            check(Account.recover_message(encode_defunct(text=MESSAGE), signature=signature) == ACCOUNT0.address,
                  f"signMessage({MESSAGE!r}): eth-account recovers account 0 (EIP-191)")

            # EIP-712 Permit (EIP-2612) on the test token
            domain = {"name": TOKEN_NAME, "version": "1", "chainId": CHAIN_ID, "verifyingContract": token}
            permit = {"owner": ACCOUNT0.address, "spender": ACCOUNT1.address, "value": PERMIT_VALUE, "nonce": 0,
                      "deadline": PERMIT_DEADLINE}
            dapp.evaluate("([d, v]) => window.signPermit(d, v)", [domain, {k: str(v) for k, v in permit.items()}])
            decide("permit", "eth_signTypedData_v4", True, (ACCOUNT1.address[2:6],))
            signature = value("permit")
            typed = {"types": {"EIP712Domain": [{"name": "name", "type": "string"}, {"name": "version", "type": "string"},
                                                {"name": "chainId", "type": "uint256"},
                                                {"name": "verifyingContract", "type": "address"}],
                               "Permit": [{"name": "owner", "type": "address"}, {"name": "spender", "type": "address"},
                                          {"name": "value", "type": "uint256"}, {"name": "nonce", "type": "uint256"},
                                          {"name": "deadline", "type": "uint256"}]},
                     "primaryType": "Permit", "domain": domain, "message": permit}
            check(Account.recover_message(encode_typed_data(full_message=typed), signature=signature) == ACCOUNT0.address,
                  "signTypedData(Permit): eth-account recovers account 0 from its own EIP-712 encoding")

            # An EIP-1559 ETH transfer and an ERC-20 transfer, mined on the test chain.
            before = {"eth0": t.get_balance(ACCOUNT0.address), "eth1": t.get_balance(ACCOUNT1.address)}
            stt = lambda who: int(t.call({"from": ACCOUNT0.address, "to": token,  # noqa: E731
                                          "data": "0x70a08231" + who[2:].lower().rjust(64, "0")}), 16)
            before.update(stt0=stt(ACCOUNT0.address), stt1=stt(ACCOUNT1.address))
            dapp.evaluate("([to, wei]) => window.sendEth(to, wei)", [ACCOUNT1.address, str(ETH_VALUE)])
            decide("transaction", "eth_sendTransaction", True, (ACCOUNT1.address[2:6], "0.012345678901234567"))
            result = {"eth": value("eth", timeout=90)}
            dapp.evaluate("([t, to, n]) => window.sendToken(t, to, n)", [token, ACCOUNT1.address, str(TOKEN_VALUE)])
            decide("token-transfer", "eth_sendTransaction", True, (ACCOUNT1.address[2:6], "1.5", "STT"))
            result["token"] = value("token", timeout=90)
            verify_in_python(result, chain, before, token)

            # Rejected: 4001, nothing sent.
            nonce, count = t.get_nonce(ACCOUNT0.address), len(chain.accepted)
            dapp.evaluate("([from, to]) => window.rawRun('rejected', 'eth_sendTransaction', [{from, to, value: '0x1'}])",
                          [ACCOUNT0.address.lower(), ACCOUNT1.address.lower()])
            decide("rejected", "eth_sendTransaction", False)
            rejected = wait("rejected")
            check(rejected.get("error", {}).get("code") == 4001, f"a rejected eth_sendTransaction fails with 4001: {rejected}")
            check(len(chain.accepted) == count and t.get_nonce(ACCOUNT0.address) == nonce,
                  "nothing reached the test chain (account 0's nonce unchanged)")

            # A never-granted origin: [] and 4100, no approval shown.
            other = context.new_page()
            other.goto(other_url)
            check(other.evaluate("!!(window.ethereum && window.ethereum.isSigil)"),
                  "on a page without another wallet, window.ethereum is Sigil's provider")
            other.evaluate("() => window.rawRun('accounts', 'eth_accounts', [])")
            check(poll(other, "window.results.accounts") == {"value": []}, "eth_accounts of a never-granted origin: []")
            other.evaluate("a => window.rawRun('sign', 'personal_sign', ['0x68656c6c6f', a])", ACCOUNT0.address.lower())
            other.evaluate("([from, to]) => window.rawRun('send', 'eth_sendTransaction', [{from, to, value: '0x1'}])",
                           [ACCOUNT0.address.lower(), ACCOUNT1.address.lower()])
            for name in ("sign", "send"):
                r = poll(other, "n => window.results[n]", name, timeout=30)
                check(r.get("error", {}).get("code") == 4100, f"{name} from a never-granted origin: 4100 ({r})")
            if not args.standin:
                check(person.ui.locator("#pending article[data-approval]:has(button.approve:not([disabled]))").count() == 0,
                      "and no approval was shown for it")
            check(len(chain.accepted) == count, "nothing reached the test chain")

            # MetaMask's disconnect (wallet_revokePermissions): the gateway's ethereum.accountsChanged [] comes on
            # the tab's event stream (the reply itself is null) and becomes accountsChanged [].
            dapp.evaluate("() => window.rawRun('revoke', 'wallet_revokePermissions', [{eth_accounts: {}}])")
            check(wait("revoke") == {"value": None}, "wallet_revokePermissions answers null")
            poll(dapp, "window.events.some(e => e[0] === 'accountsChanged' && e[1].length === 0)", timeout=30)
            check(True, "the event stream's ethereum.accountsChanged [] reaches the dapp as accountsChanged []")
            dapp.evaluate("() => window.rawRun('after', 'eth_accounts', [])")
            check(wait("after") == {"value": []}, "eth_accounts is [] after the revocation")

            if args.standin:  # the event stream's ethereum.chainChanged → chainChanged (Sigil has one chain in --dev)
                gateway.push({"id": "ethereum.chainChanged", "subscription": "0x2a"})
                poll(dapp, "window.events.some(e => e[0] === 'chainChanged' && e[1] === '0x2a')")
                check(True, "an ethereum.chainChanged event on the tab's stream becomes chainChanged '0x2a'")

            # The same through the userscript (postMessage transport, GM_xmlhttpRequest relay).
            script = (userscript_for(gateway.gateway) if args.standin else userscript_for(
                gateway.gateway, http("GET", f"{gateway.ui}/sigil.user.js?token={gateway.token}")[1].decode()))
            origin = check_userscript(browser, gateway.gateway, script, decide)
            if args.standin:
                check(origin in gateway.connected, "the relay stated the tab's own origin")

            # The gateway gone: 4900 and disconnect.
            gateway.stop()
            dapp.evaluate("() => window.rawRun('gone', 'eth_blockNumber', [])")
            gone = poll(dapp, "window.results.gone", timeout=30)
            check(gone.get("error", {}).get("code") == 4900, f"with the gateway gone a request fails with 4900: {gone}")
            poll(dapp, "window.events.some(e => e[0] === 'disconnect' && e[1].code === 4900)", timeout=30)
            check(True, "and the provider emitted disconnect (4900)")
            check(not errors, f"no uncaught error in the dapp page: {errors}")
            browser.close()
    finally:
        gateway.stop()
        chain.stop()
        dapp_server.shutdown()
        other_server.shutdown()
    what = "the provider against GatewayStandIn (a test double, not Sigil)" if args.standin else "Sigil"
    print(f"ethereum e2e: ok (ethers v6 through {what}; signatures recovered by eth-account; "
          f"{len(chain.accepted)} transactions accepted by the test chain)")


if __name__ == "__main__":
    main()
