"""ICON through the gateway (issue 12), checked with the ICON Python SDK and coincurve.

1. Keystore files both ways: files written by iconsdk (scrypt, via KeyWallet.store) and by
   eth-keyfile with pbkdf2 (the other KDF ICON wallets accept) import into `sigil accounts import`
   with the right address; `sigil accounts export` files (scrypt and pbkdf2) load in iconsdk's
   KeyWallet.load with the same private key; a wrong password and an altered MAC are refused.
2. ICONex Connect v1 over `POST /icon/connect` against `sigil serve --dev --auto-approve` with
   `--icon-rpc` pointing at IconTestDoubleNode (a test double that verifies every submitted
   transaction with iconsdk's serializer and coincurve public-key recovery):
   - `bind` → the dev ICON account;
   - seeded random transactions built with iconsdk's builders (transfers, calls with nested params,
     messages) signed with `sign`: each signature recovers (coincurve) to `from` over iconsdk's hash;
   - seeded random `sendICX` and `sendToken`: accepted by the test double, and the hash Sigil reports
     is the one the node accepted;
   - a node that refuses, or answers another hash: Sigil answers -9999, never a hash;
   - the v1 error table (-1001, -1002, -1003, -2002, -3001, -3002, -3005) and the refusals;
   - without --icon-rpc: -9999 "no ICON node configured", also as a JSON-RPC error for the relay;
   - the URL form: GET /icon/connect?data=&caller= redirects (303) to caller?data=<answer>,
     -1004 without caller, 403 when the caller is not the page's origin.
Seeded (ICON_GATEWAY_SEED), so reproducible; ICON_GATEWAY_ROUNDS sets the scale (default 200).
"""
import argparse
import base64
import json
import os
import pathlib
import random
import subprocess
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request

import coincurve
from bip_utils import Bip39MnemonicGenerator, Bip39SeedGenerator, Bip44, Bip44Changes, Bip44Coins
from eth_keyfile import create_keyfile_json
from iconsdk.builder.transaction_builder import CallTransactionBuilder, MessageTransactionBuilder, TransactionBuilder
from iconsdk.libs import serializer
from iconsdk.signed_transaction import SignedTransaction
from iconsdk.wallet.wallet import KeyWallet, public_key_to_address

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "e2e"))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from icon_test_double_node import IconTestDoubleNode  # noqa: E402
from sigil_process import SigilProcess  # noqa: E402

CHECKS = 0


def check(cond, what):
    global CHECKS
    if not cond:
        raise AssertionError(what)
    CHECKS += 1


def say(what):
    print("  ok:", what, flush=True)


def http(method, url, headers=None, body=None, timeout=30):
    req = urllib.request.Request(url, method=method, headers=headers or {}, data=body)

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(req, timeout=timeout) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def recovers(signature_b64, msg_hash, address):
    sig = base64.b64decode(signature_b64, validate=True)
    pub = coincurve.PublicKey.from_signature_and_message(sig, msg_hash, hasher=None)
    return public_key_to_address(pub.format(compressed=False)) == address


# ---------------------------------------------------------------------------------------------
def keystore_rounds(sigil, rng, n):
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        pw = tmp / "pw"
        pw.write_text("Interop-pw1!\n")
        os.chmod(pw, 0o600)
        data = str(tmp / "data")
        run = lambda *a, **k: subprocess.run([sigil, *a, "--data-dir", data, "--password-file", str(pw)],
                                             capture_output=True, text=True, **k)
        for i in range(n):
            secret = rng.randbytes(32)
            wallet = KeyWallet.load(secret)
            path = tmp / f"sdk-{i}.json"
            if i % 2 == 0:
                wallet.store(str(path), "Interop-pw1!")
                kdf = "scrypt (iconsdk KeyWallet.store)"
            else:
                doc = create_keyfile_json(secret, b"Interop-pw1!", kdf="pbkdf2", iterations=1 << 14)
                doc["address"] = wallet.get_address()
                doc["coinType"] = "icx"
                path.write_text(json.dumps(doc))
                kdf = "pbkdf2 (eth-keyfile)"
            out = run("accounts", "import", str(path), "--json", "--name", f"sdk{i}")
            check(out.returncode == 0, f"import of an iconsdk file ({kdf}): {out.stderr}")
            check(json.loads(out.stdout)[0]["address"] == wallet.get_address(), f"imported address ({kdf})")
            # Sigil → iconsdk: export with both KDFs, load with the SDK.
            for method in ("scrypt", "pbkdf2"):
                exported = tmp / f"sigil-{i}-{method}.json"
                out = run("accounts", "export", wallet.get_address(), "--kdf", method, "--out", str(exported))
                check(out.returncode == 0, f"export {method}: {out.stderr}")
                loaded = KeyWallet.load(str(exported), "Interop-pw1!")
                check(loaded.get_private_key() == secret.hex(), f"iconsdk loads Sigil's {method} export")
        # Accounts added in Sigil from raw keys, exported, loaded by iconsdk.
        for i in range(n):
            secret = rng.randbytes(32)
            address = KeyWallet.load(secret).get_address()
            out = subprocess.run([sigil, "accounts", "add", "--chain", "icon", "-", "--name", f"raw{i}", "--json",
                                  "--data-dir", data, "--password-file", str(pw)],
                                 input="0x" + secret.hex() + "\n", capture_output=True, text=True)
            check(out.returncode == 0 and json.loads(out.stdout)["address"] == address, "accounts add --chain icon")
            exported = tmp / f"raw-{i}.json"
            run("accounts", "export", address, "--out", str(exported), check=True)
            check(KeyWallet.load(str(exported), "Interop-pw1!").get_private_key() == secret.hex(), "round trip")
        # Mnemonics: `accounts add --chain icon` and `key inspect --scheme icon` at m/44'/74'/0'/0/n
        # against bip-utils (its own BIP39 seed and BIP32/BIP44 for ICON).
        for i in range(n):
            phrase = str(Bip39MnemonicGenerator().FromEntropy(rng.randbytes(rng.choice([16, 32]))))
            index = rng.choice([0, 1, rng.randrange(1 << 31)])
            expected = (Bip44.FromSeed(Bip39SeedGenerator(phrase).Generate(), Bip44Coins.ICON).Purpose().Coin()
                        .Account(0).Change(Bip44Changes.CHAIN_EXT).AddressIndex(index))
            out = subprocess.run([sigil, "key", "inspect", "--scheme", "icon", "-", "--index", str(index), "--json"],
                                 input=phrase + "\n", capture_output=True, text=True)
            check(out.returncode == 0, f"key inspect: {out.stderr}")
            report = json.loads(out.stdout)
            check(report["address"] == expected.PublicKey().ToAddress()
                  and report["path"] == f"m/44'/74'/0'/0/{index}"
                  and report["secretKey"] == "0x" + expected.PrivateKey().Raw().ToHex(), "key inspect --scheme icon")
            out = subprocess.run([sigil, "accounts", "add", "--chain", "icon", "-", "--index", str(index), "--json",
                                  "--name", f"m{i}", "--data-dir", data, "--password-file", str(pw)],
                                 input=phrase + "\n", capture_output=True, text=True)
            check(out.returncode == 0 and json.loads(out.stdout)["address"] == expected.PublicKey().ToAddress(),
                  f"accounts add --chain icon from a mnemonic: {out.stderr}")
        # Refusals: wrong password, altered MAC.
        wallet = KeyWallet.create()
        bad = tmp / "bad.json"
        wallet.store(str(bad), "Other-pw2!")
        out = run("accounts", "import", str(bad))
        check(out.returncode != 0 and "decrypt" in (out.stderr + out.stdout).lower(), "wrong password refused")
        doc = json.loads(bad.read_text())
        doc["crypto"]["mac"] = ("0" if doc["crypto"]["mac"][0] != "0" else "1") + doc["crypto"]["mac"][1:]
        bad.write_text(json.dumps(doc))
        pw.write_text("Other-pw2!\n")
        out = run("accounts", "import", str(bad))
        check(out.returncode != 0, "altered MAC refused")
    say(f"keystore files both ways: {n} iconsdk/eth-keyfile imports, {3 * n} exports loaded by iconsdk, refusals; "
        f"{n} mnemonics through key inspect and accounts add against bip-utils")


# ---------------------------------------------------------------------------------------------
def t_int(rng, bits=64):
    return hex(rng.randrange(0, 1 << rng.choice([8, 16, 32, bits])))


def hx(rng):
    return "hx" + rng.randbytes(20).hex()


def cx(rng):
    return "cx" + rng.randbytes(20).hex()


def data_value(rng, depth=0):
    kind = rng.randrange(5 if depth < 3 else 2)
    if kind == 0:
        return rng.choice(["plain", "a.b\\c{d}[e]", "ünïcødé ✓", "", "0x1", "dots...", "[x]"]) + str(rng.randrange(99))
    if kind == 1:
        return None if rng.random() < 0.2 else t_int(rng)
    if kind == 2:
        return [data_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if kind == 3:
        return {f"k{j}_{rng.randrange(9)}": data_value(rng, depth + 1) for j in range(rng.randrange(4))}
    return hx(rng)


def sdk_tx(rng, sender):
    """A transaction as iconsdk builds it (its builders, then its request-params conversion)."""
    common = dict(from_=sender, step_limit=rng.randrange(1, 1 << 32), nid=rng.choice([1, 2, 7, 0x53, 0x3f]),
                  nonce=rng.randrange(0, 1 << 20), timestamp=rng.randrange(1 << 50, 1 << 52))
    kind = rng.randrange(3)
    if kind == 0:
        builder = TransactionBuilder().from_(sender).to(hx(rng)).value(rng.randrange(0, 10 ** 24))
    elif kind == 1:
        builder = CallTransactionBuilder().from_(sender).to(cx(rng)).method(rng.choice(["transfer", "vote", "set"]))
        builder = builder.params({f"p{j}": data_value(rng) for j in range(rng.randrange(4))})
    else:
        builder = MessageTransactionBuilder().from_(sender).to(hx(rng)).data("0x" + rng.randbytes(rng.randrange(1, 40)).hex())
    builder = builder.step_limit(common["step_limit"]).nid(common["nid"]).nonce(common["nonce"])
    builder = builder.timestamp(common["timestamp"]).version(3)
    params = SignedTransaction.convert_tx_to_jsonrpc_request(builder.build())
    params.setdefault("value", "0x0")  # Connect v1 `sign` wants value (and nonce) present
    return params


class Connect:
    def __init__(self, sigil, token):
        self.url = sigil.gateway + "/icon/connect"
        self.headers = {"Content-Type": "application/json", "Authorization": "Bearer " + token}
        self.next_id = 0

    def raw(self, body):
        status, _, out = http("POST", self.url, self.headers, body)
        check(status == 200, f"HTTP {status}")
        return json.loads(out)

    def __call__(self, method, params=None):
        self.next_id += 1
        request = {"id": self.next_id, "method": method}
        if params is not None:
            request["params"] = params
        answer = self.raw(json.dumps(request).encode())
        check(answer.get("id") == self.next_id, f"answer id {answer}")
        return answer


def connect_rounds(binary, rng, n):
    node = IconTestDoubleNode()
    sigil = SigilProcess(binary, "--auto-approve", "--client", "icontest", "--icon-rpc", node.url, "--icon-nid", "0x3f")
    try:
        c = Connect(sigil, sigil.client_tokens["icontest"])
        bound = c("bind")
        check(bound["code"] == 1 and bound["result"].startswith("hx"), f"bind: {bound}")
        me = bound["result"]
        say(f"bind → the dev ICON account {me}")

        for _ in range(n):
            tx = sdk_tx(rng, me)
            answer = c("sign", tx)
            check(answer["code"] == 1, f"sign: {answer} for {tx}")
            check(recovers(answer["result"], bytes.fromhex(serializer.generate_message(tx)), me),
                  "Sigil's signature recovers to from over iconsdk's hash")
        say(f"{n} random iconsdk-built transactions signed by Sigil, verified with iconsdk + coincurve")

        before = len(node.accepted)
        for i in range(n):
            if i % 2 == 0:
                params = {"from": me, "to": hx(rng), "value": hex(rng.randrange(1, 10 ** 22))}
                if rng.random() < 0.3:
                    params["dataType"] = "message"
                    params["data"] = "0x" + b"hello ICON".hex()
                answer = c("sendICX", params)
            else:
                params = {"from": me, "to": hx(rng), "value": hex(rng.randrange(1, 10 ** 22)), "contractAddress": cx(rng)}
                answer = c("sendToken", params)
            check(answer["code"] == 1, f"send: {answer}")
            sent, node_hash = node.accepted[-1]
            check(answer["result"] == node_hash, "the hash Sigil reports is the one the node accepted")
            check(sent["from"] == me and sent["nid"] == "0x3f", "filled nid from --icon-nid")
            if "contractAddress" in params:
                check(sent["to"] == params["contractAddress"] and sent["dataType"] == "call"
                      and sent["data"] == {"method": "transfer", "params": {"_to": params["to"], "_value": params["value"]}}
                      and "value" not in sent, "sendToken is a call of transfer(_to, _value)")
        check(len(node.accepted) - before == n, "every send reached the node")
        say(f"{n} random sendICX/sendToken accepted by the test-double node (iconsdk + coincurve), hashes match")

        node.refuse_values.add("0xbad")
        answer = c("sendICX", {"from": me, "to": hx(rng), "value": "0xbad"})
        check(answer["code"] == -9999 and "refused" in answer["result"], f"a refused send is -9999: {answer}")
        node.wrong_hash_values.add("0xbadbad")
        answer = c("sendICX", {"from": me, "to": hx(rng), "value": "0xbadbad"})
        check(answer["code"] == -9999 and not answer["result"].startswith("0x"), f"another hash is never reported: {answer}")
        say("node refusal and a wrong node hash: -9999, no hash reported")

        # The v1 error table and the refusals.
        base = sdk_tx(random.Random(1), me)
        def sign_with(**change):
            tx = dict(base)
            for k, v in change.items():
                if v is None:
                    tx.pop(k, None)
                else:
                    tx[k] = v
            return c("sign", tx)
        check(c.raw(b"{not json")["code"] == -1001, "-1001 parse error")
        check(c.raw(b'{"method":"bind"}')["code"] == -1002, "-1002 without id")
        check(c("nope")["code"] == -1003, "-1003 unknown method")
        check(sign_with(nid=None)["code"] == -2002 and "'nid'" in sign_with(nid=None)["result"], "-2002 missing nid")
        check(sign_with(**{"from": hx(rng)})["code"] == -3001, "-3001 an account that is not ours")
        check(sign_with(to=me)["code"] == -3002, "-3002 from == to")
        for bad, what in [({"stepLimit": "0x01"}, "0x01"), ({"stepLimit": "0XA"}, "0XA"), ({"stepLimit": "0xA"}, "0xA"),
                          ({"to": "HX" + "ab" * 20}, "upper-case address"), ({"version": "0x2"}, "version 0x2"),
                          ({"dataType": "deploy", "data": {"contentType": "application/zip", "content": "0x00"}}, "deploy"),
                          ({"dataType": "call", "data": {"method": "m", "params": {"flag": True}}}, "boolean in data"),
                          ({"dataType": "call", "data": {"method": "m", "params": {"n": 5}}}, "number in data"),
                          ({"dataType": "call", "data": {"method": "m", "params": {"é": "x"}}}, "non-ASCII key")]:
            answer = sign_with(**bad)
            check(answer["code"] == -3005, f"-3005 for {what}: {answer}")
        check(sign_with(extra="1")["code"] == -1002, "unknown top-level key refused (-1002)")
        dup = json.dumps({"id": 99, "method": "sign", "params": base})[:-2] + ', "nid": "0x1"}}'
        check(c.raw(dup.encode())["code"] in (-1001, -3005), "a duplicate key is refused")
        say("ICONex Connect v1 error table and refusals (-1001 -1002 -1003 -2002 -3001 -3002 -3005)")

        # The URL form (no browser: headers as a browser sends them on a navigation). The caller's
        # origin is the site: it binds first, then signs.
        caller = "http://127.0.0.1:1/callback?x=1"
        bind = base64.b64encode(json.dumps({"id": 6, "method": "bind"}).encode()).decode()
        url = sigil.gateway + "/icon/connect?" + urllib.parse.urlencode({"data": bind, "caller": caller})
        status, headers, _ = http("GET", url, {"Referer": "http://127.0.0.1:1/page"})
        answer = json.loads(base64.b64decode(urllib.parse.unquote(headers.get("Location", "").split("&data=")[1])))
        check(status == 303 and answer == {"id": 6, "code": 1, "result": me}, f"URL-form bind: {answer}")
        request = base64.b64encode(json.dumps({"id": 7, "method": "sign", "params": base}).encode()).decode()
        url = sigil.gateway + "/icon/connect?" + urllib.parse.urlencode({"data": request, "caller": caller})
        status, headers, _ = http("GET", url, {"Referer": "http://127.0.0.1:1/page"})
        location = headers.get("Location", "")
        check(status == 303 and location.startswith(caller + "&data="), f"303 to caller?data=: {status} {location}")
        answer = json.loads(base64.b64decode(urllib.parse.unquote(location.split("&data=")[1])))
        check(answer["id"] == 7 and answer["code"] == 1, f"URL-form sign: {answer}")
        check(answer["id"] == 7 and answer["code"] == 1
              and recovers(answer["result"], bytes.fromhex(serializer.generate_message(base)), me), "redirected answer verifies")
        status, _, out = http("GET", sigil.gateway + "/icon/connect?" + urllib.parse.urlencode({"data": request}))
        check(status == 400 and json.loads(out)["code"] == -1004, "-1004 without caller")
        status, _, _ = http("GET", url, {"Referer": "http://evil.example/page"})
        check(status == 403, "a caller of another origin than the page is refused")
        status, _, _ = http("GET", url)
        check(status == 403, "no Referer: refused")
        say("URL form: 303 redirect round trip, -1004, caller/origin mismatch refused")
    finally:
        sigil.stop()
        node.stop()

    # Without a node: sending is refused before anything is queued.
    sigil = SigilProcess(binary, "--auto-approve", "--client", "icontest")
    try:
        c = Connect(sigil, sigil.client_tokens["icontest"])
        me = c("bind")["result"]
        answer = c("sendICX", {"from": me, "to": hx(rng), "value": "0x1"})
        check(answer == {"id": c.next_id, "code": -9999, "result": "Somethings wrong with network (no ICON node configured)"},
              f"no node: {answer}")
        headers = {"Content-Type": "application/json", "Origin": "https://dapp.example", "X-Sigil-Session": "iconsession1"}
        send = lambda i, m, r: json.loads(http("POST", sigil.gateway + "/v1/request", headers,
                                               json.dumps({"id": i, "message": m, "request": r}).encode())[2])
        address = send("1", "icon(address)", None)
        check(address["response"] == {"code": 1, "result": me}, f"relay REQUEST_ADDRESS: {address}")
        rpc = send("2", "icon(jsonRpc)", {"jsonrpc": "2.0", "id": 5, "method": "icx_sendTransaction",
                                          "params": {"from": me, "to": hx(rng), "value": "0x1"}})
        error = rpc["response"]["result"]["error"]
        check(rpc["response"]["result"]["id"] == 5 and "no ICON node configured" in error["message"],
              f"relay JSON-RPC error without a node: {rpc}")
        blind = send("3", "icon(signing)", {"from": me, "hash": "ab" * 32})
        check(blind["response"]["code"] != 1, "blind signing refused without the per-site opt-in")
        say("without --icon-rpc: -9999 'no ICON node configured' (Connect and JSON-RPC); blind signing off by default")
    finally:
        sigil.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("sigil")
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20261125)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    keystore_rounds(args.sigil, rng, max(4, args.rounds // 25))
    connect_rounds(args.sigil, rng, args.rounds)
    print(f"ICON gateway interop: {CHECKS} checks passed (seed {args.seed}, {args.rounds} rounds)")


if __name__ == "__main__":
    main()
