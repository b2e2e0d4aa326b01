"""EthereumTestChain: a TEST CHAIN (a test double for an Ethereum node), not a node.

eth-tester with the py-evm backend (the real EVM, Prague rules, one block per transaction) behind a
small JSON-RPC 2.0 server (stdlib http.server, EIP-1474 method names) that answers the methods a
wallet and ethers v6 need: eth_chainId, net_version, eth_blockNumber, eth_getBalance,
eth_getTransactionCount, eth_estimateGas, eth_gasPrice, eth_maxPriorityFeePerGas, eth_feeHistory,
eth_getBlockByNumber, eth_getBlockByHash, eth_call, eth_sendRawTransaction,
eth_getTransactionReceipt, eth_getTransactionByHash, eth_getCode. Nothing else (-32601).

Genesis: the public development mnemonic ("test test … junk", never for real funds) at
m/44'/60'/0'/0/i, accounts 0-2 funded with 1,000,000 ETH each; chain id 1337 (0x539) unless
--chain-id says otherwise. Account 0 then deploys STT, a minimal ERC-20 written here in raw EVM
assembly (TOKEN_RUNTIME below, assembled by this file; no compiler), at its first CREATE address
0x5FbDB2315678afecb367f032d93F642f64180aa3 with the whole supply.

Every eth_sendRawTransaction is checked with libraries independent of the wallet that signed it
before the EVM sees it: the envelope decoded with eth-account's `typed_transactions.TypedTransaction`
(EIP-2718 types 1 and 2) or pyrlp (legacy, EIP-155), the sender recovered with eth-account's
`Account.recover_transaction`, the chain id checked, the hash recomputed as keccak256(raw). Accepted
transactions are logged as JSON lines on stderr ("accepted …") and kept in `accepted` (also served to
tests as `testchain_accepted`); refusals in `refused`.

Run alone: `python scripts/interop/ethereum_test_chain.py [--chain-id N]` prints
"ethereum test chain: http://127.0.0.1:PORT chainId 0x539 token 0x5FbD…" on stdout and serves until its
parent exits (or SIGTERM). `--self-check` starts one, signs and sends with eth-account over HTTP, checks
the results and exits 0 (scripts/test.d/75-e2e-ethereum.sh runs it).
"""
import argparse
import json
import os
import re
import signal
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import rlp
from hexbytes import HexBytes
from eth_account import Account
from eth_account.typed_transactions import TypedTransaction
from eth_tester import EthereumTester, PyEVMBackend
from eth_tester.exceptions import TransactionFailed, TransactionNotFound, BlockNotFound
from eth_utils import keccak, to_checksum_address

MNEMONIC = "test test test test test test test test test test test junk"
DEV_PATH = "m/44'/60'/0'/0"  # account i at m/44'/60'/0'/0/i (eth-tester's default omits the /0 level)
FUNDED = 3
TOKEN_NAME, TOKEN_SYMBOL, TOKEN_DECIMALS = "Sigil Test Token", "STT", 18
TOKEN_SUPPLY = 1_000_000 * 10 ** TOKEN_DECIMALS
CALL_SENDER = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"  # account 2
TRANSFER_TOPIC = keccak(text="Transfer(address,address,uint256)")
ADDRESS_MASK = (1 << 160) - 1

# --- The token, in raw EVM assembly ------------------------------------------------------------------
# A minimal ERC-20 subset: name(), symbol(), decimals(), totalSupply(), balanceOf(address),
# transfer(address,uint256) -> true with the Transfer event; no approve/transferFrom. Balances live in
# storage slot = the holder's address. transfer reverts when the balance is short. The creation code
# gives the whole supply to the deployer (CALLER) and returns the runtime.


def _word(text):
    data = text.encode()
    assert len(data) <= 32
    return int.from_bytes(data.ljust(32, b"\0"), "big")


def _return_word(*value):  # mstore(0, value); return(0, 32)
    return [*value, ("PUSH", 0), "MSTORE", ("PUSH", 32), ("PUSH", 0), "RETURN"]


def _return_string(text):  # the ABI encoding of one `string`: offset 0x20, length, data
    return [("PUSH", 0x20), ("PUSH", 0), "MSTORE", ("PUSH", len(text.encode())), ("PUSH", 0x20), "MSTORE",
            ("PUSH32", _word(text)), ("PUSH", 0x40), "MSTORE", ("PUSH", 0x60), ("PUSH", 0), "RETURN"]


SELECTORS = {"balanceOf": 0x70A08231, "transfer": 0xA9059CBB, "symbol": 0x95D89B41, "name": 0x06FDDE03,
             "decimals": 0x313CE567, "totalSupply": 0x18160DDD}
TOKEN_RUNTIME = [
    ("PUSH", 0), "CALLDATALOAD", ("PUSH", 224), "SHR",                      # selector
    *[x for name, sel in SELECTORS.items() for x in ("DUP1", ("PUSH4", sel), "EQ", ("LABEL", name), "JUMPI")],
    ("AT", "fail"), "JUMPDEST", ("PUSH", 0), "DUP1", "REVERT",
    ("AT", "balanceOf"), "JUMPDEST",
    *_return_word(("PUSH", 4), "CALLDATALOAD", ("PUSH20", ADDRESS_MASK), "AND", "SLOAD"),
    ("AT", "transfer"), "JUMPDEST",
    ("PUSH", 0x24), "CALLDATALOAD", "CALLER", "SLOAD",                       # amount, balance
    "DUP2", "DUP2", "LT", ("LABEL", "fail"), "JUMPI",                        # balance < amount: revert
    "DUP2", "SWAP1", "SUB", "CALLER", "SSTORE",                             # sstore(caller, balance - amount)
    ("PUSH", 4), "CALLDATALOAD", ("PUSH20", ADDRESS_MASK), "AND",            # amount, to
    "DUP1", "SLOAD", "DUP3", "ADD", "DUP2", "SSTORE",                       # sstore(to, sload(to) + amount)
    "SWAP1", ("PUSH", 0), "MSTORE",                                         # mstore(0, amount); to
    "CALLER", ("PUSH32", int.from_bytes(TRANSFER_TOPIC, "big")), ("PUSH", 32), ("PUSH", 0), "LOG3",
    *_return_word(("PUSH", 1)),
    ("AT", "symbol"), "JUMPDEST", *_return_string(TOKEN_SYMBOL),
    ("AT", "name"), "JUMPDEST", *_return_string(TOKEN_NAME),
    ("AT", "decimals"), "JUMPDEST", *_return_word(("PUSH", TOKEN_DECIMALS)),
    ("AT", "totalSupply"), "JUMPDEST", *_return_word(("PUSH32", TOKEN_SUPPLY)),
]
OPCODES = {"STOP": 0x00, "ADD": 0x01, "SUB": 0x03, "LT": 0x10, "EQ": 0x14, "AND": 0x16, "SHR": 0x1C,
           "CALLER": 0x33, "CALLDATALOAD": 0x35, "CODECOPY": 0x39, "MSTORE": 0x52, "SLOAD": 0x54,
           "SSTORE": 0x55, "JUMPI": 0x57, "JUMPDEST": 0x5B, "DUP1": 0x80, "DUP2": 0x81, "DUP3": 0x82,
           "SWAP1": 0x90, "LOG3": 0xA3, "RETURN": 0xF3, "REVERT": 0xFD}


def assemble(program):
    """Two passes: ("AT", label) marks a position, ("LABEL", label) pushes it (PUSH2), ("PUSH", n) the
    shortest PUSH, ("PUSHk", n) a k-byte PUSH."""
    def size(item):
        if isinstance(item, str):
            return 1
        kind, value = item
        if kind == "AT":
            return 0
        if kind == "LABEL":
            return 3
        width = int(kind[4:]) if kind != "PUSH" else max(1, (value.bit_length() + 7) // 8)
        return 1 + width
    labels, at = {}, 0
    for item in program:
        if isinstance(item, tuple) and item[0] == "AT":
            labels[item[1]] = at
        at += size(item)
    out = bytearray()
    for item in program:
        if isinstance(item, str):
            out.append(OPCODES[item])
            continue
        kind, value = item
        if kind == "AT":
            continue
        if kind == "LABEL":
            value, width = labels[value], 2
        else:
            width = size(item) - 1
        out.append(0x5F + width)
        out += value.to_bytes(width, "big")
    return bytes(out)


def token_creation_code():
    runtime = assemble(TOKEN_RUNTIME)
    prefix = lambda offset: assemble([  # noqa: E731
        ("PUSH32", TOKEN_SUPPLY), "CALLER", "SSTORE",                       # sstore(caller, supply)
        ("PUSH2", len(runtime)), ("PUSH2", offset), ("PUSH", 0), "CODECOPY",
        ("PUSH2", len(runtime)), ("PUSH", 0), "RETURN"])
    return prefix(len(prefix(0))) + runtime


# --- JSON-RPC shapes -----------------------------------------------------------------------------------
def _camel(key):
    return {"coinbase": "miner"}.get(key) or re.sub(r"_([a-z0-9])", lambda m: m.group(1).upper(), key)


def to_rpc(value, key=""):
    """eth-tester's Python values → JSON-RPC (EIP-1474): camelCase keys, QUANTITY hex, DATA hex."""
    if isinstance(value, dict):
        out = {_camel(k): to_rpc(v, k) for k, v in value.items()}
        if "coinbase" in value:
            out["coinbase"] = value["coinbase"]
        if "nonce" in value and "data" in value:  # a transaction: EIP-1474 calls its data `input`
            out["input"] = out["data"]
        if key == "" and "transaction_hash" in value and "effective_gas_price" in value:  # a receipt
            out.setdefault("logsBloom", "0x" + "00" * 256)
        return out
    if isinstance(value, (list, tuple)):
        return [to_rpc(v, key) for v in value]
    if isinstance(value, bytes):
        return "0x" + value.hex()
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        if key == "logs_bloom":
            return "0x" + value.to_bytes(256, "big").hex()
        if key in ("r", "s"):
            return "0x" + value.to_bytes(32, "big").hex()
        return hex(value)
    return value


def _quantity(value):
    return int(value, 16) if isinstance(value, str) else int(value)


def from_rpc_call(tx):
    """A call/estimate object (EIP-1474) → eth-tester's transaction dict."""
    names = {"from": "from", "to": "to", "gas": "gas", "gasPrice": "gas_price", "value": "value",
             "maxFeePerGas": "max_fee_per_gas", "maxPriorityFeePerGas": "max_priority_fee_per_gas"}
    # `nonce` is left out: like geth and anvil, calls and estimates do not check it.
    out = {}
    for k, v in (tx or {}).items():
        if v is None:
            continue
        if k in ("data", "input"):
            out["data"] = v
        elif k in ("from", "to"):
            out[k] = to_checksum_address(v)
        elif k in names:
            out[names[k]] = _quantity(v)
    # eth_call may omit `from`; eth-tester wants a sender that can afford the gas: account 2 (funded, unused).
    out.setdefault("from", CALL_SENDER)
    return out


def _block_id(tag):
    if tag is None or tag in ("pending", "safe", "finalized"):
        return "latest"
    return tag if tag in ("latest", "earliest") else _quantity(tag)


class RpcError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def decode_raw_transaction(raw):
    """The envelope decoded by eth-account's TypedTransaction (types 1, 2) or pyrlp (legacy): a dict of
    the signed fields, independent of eth-tester and of whoever signed it."""
    if raw[0] <= 0x7F:
        typed = TypedTransaction.from_bytes(HexBytes(raw))
        fields = typed.as_dict()
        fields["type"] = raw[0]
        return fields
    nonce, gas_price, gas, to, value, data, v, r, s = rlp.decode(raw)
    i = lambda b: int.from_bytes(b, "big")  # noqa: E731
    chain_id = (i(v) - 35) // 2 if i(v) >= 35 else None
    return {"type": 0, "nonce": i(nonce), "gasPrice": i(gas_price), "gas": i(gas), "to": to, "value": i(value),
            "data": data, "chainId": chain_id, "v": i(v), "r": i(r), "s": i(s)}


class EthereumTestChain:
    """The TEST CHAIN in this process: `url`, `token`, `chain_id`, `accepted`, `refused`, `stop()`."""

    def __init__(self, chain_id=1337, host="127.0.0.1", port=0, quiet=False):
        self.chain_id = chain_id
        self.quiet = quiet
        backend = PyEVMBackend(mnemonic=MNEMONIC, hd_path=DEV_PATH,
                               genesis_state=PyEVMBackend.generate_genesis_state(
                                   num_accounts=FUNDED, mnemonic=MNEMONIC, hd_path=DEV_PATH))
        backend.chain.chain_id = chain_id  # eth-tester's chain class fixes 131277322940537; py-evm reads it here
        self.tester = EthereumTester(backend)
        self.accounts = self.tester.get_accounts()
        self.lock = threading.Lock()
        self.accepted, self.refused, self.calls = [], [], []
        deployed = self.tester.send_transaction({"from": self.accounts[0], "data": "0x" + token_creation_code().hex(),
                                                 "gas": 1_000_000})
        self.token = self.tester.get_transaction_receipt(deployed)["contract_address"]
        chain = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as nodes answer (every reply has its Content-Length)

            def do_POST(self):
                try:
                    body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
                    reply = [chain.handle(r) for r in body] if isinstance(body, list) else chain.handle(body)
                except ValueError:
                    reply = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
                data = json.dumps(reply).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer((host, port), Handler)
        self.url = f"http://{host}:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def log(self, text):
        if not self.quiet:
            print(text, file=sys.stderr, flush=True)

    def handle(self, request):
        rid = request.get("id") if isinstance(request, dict) else None
        try:
            if not isinstance(request, dict) or not isinstance(request.get("method"), str):
                raise RpcError(-32600, "Invalid request")
            params = request.get("params") or []
            self.calls.append(request["method"])
            with self.lock:
                result = self.dispatch(request["method"], params)
            return {"jsonrpc": "2.0", "id": rid, "result": result}
        except RpcError as e:
            return {"jsonrpc": "2.0", "id": rid, "error": {"code": e.code, "message": str(e)}}
        except TransactionFailed as e:
            return {"jsonrpc": "2.0", "id": rid, "error": {"code": 3, "message": f"execution reverted: {e}"}}
        except Exception as e:  # a test chain: say what went wrong
            return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32603, "message": f"{type(e).__name__}: {e}"}}

    def dispatch(self, method, p):
        t = self.tester
        arg = lambda i, default=None: p[i] if len(p) > i else default  # noqa: E731
        if method == "eth_chainId":
            return hex(self.chain_id)
        if method == "net_version":
            return str(self.chain_id)
        if method == "eth_blockNumber":
            return hex(t.get_block_by_number("latest")["number"])
        if method == "eth_getBalance":
            return hex(t.get_balance(to_checksum_address(p[0]), _block_id(arg(1))))
        if method == "eth_getTransactionCount":
            return hex(t.get_nonce(to_checksum_address(p[0]), _block_id(arg(1))))
        if method == "eth_getCode":
            return t.get_code(to_checksum_address(p[0]), _block_id(arg(1)))
        if method == "eth_call":
            return t.call(from_rpc_call(p[0]), _block_id(arg(1)))
        if method == "eth_estimateGas":
            return hex(t.estimate_gas(from_rpc_call(p[0]), _block_id(arg(1))))
        if method == "eth_maxPriorityFeePerGas":
            return hex(10 ** 9)
        if method == "eth_gasPrice":
            return hex(t.get_block_by_number("latest")["base_fee_per_gas"] + 10 ** 9)
        if method == "eth_feeHistory":
            history = t.get_fee_history(_quantity(p[0]), _block_id(arg(1)), arg(2) or [])
            return to_rpc(history)
        if method in ("eth_getBlockByNumber", "eth_getBlockByHash"):
            try:
                block = (t.get_block_by_number(_block_id(p[0]), bool(arg(1))) if method == "eth_getBlockByNumber"
                         else t.get_block_by_hash(p[0], bool(arg(1))))
            except BlockNotFound:
                return None
            return to_rpc(block)
        if method == "eth_getTransactionByHash":
            try:
                return to_rpc(t.get_transaction_by_hash(p[0]))
            except TransactionNotFound:
                return None
        if method == "eth_getTransactionReceipt":
            try:
                return to_rpc(t.get_transaction_receipt(p[0]))
            except TransactionNotFound:
                return None
        if method == "eth_sendRawTransaction":
            return self.send_raw(p[0])
        if method == "testchain_accepted":  # for tests: what this test chain accepted, as logged
            return self.accepted
        raise RpcError(-32601, f"the method {method} does not exist/is not available on this test chain")

    def send_raw(self, raw_hex):
        try:
            raw = bytes.fromhex(raw_hex[2:] if raw_hex.startswith("0x") else raw_hex)
            fields = decode_raw_transaction(raw)
            sender = Account.recover_transaction(raw)
        except Exception as e:
            self.refused.append({"raw": raw_hex, "why": f"undecodable: {e}"})
            raise RpcError(-32602, f"invalid raw transaction: {e}")
        if fields.get("chainId") != self.chain_id:
            self.refused.append({"raw": raw_hex, "why": f"chain id {fields.get('chainId')}"})
            raise RpcError(-32000, f"invalid chain id {fields.get('chainId')} (this test chain is {self.chain_id})")
        tx_hash = "0x" + keccak(raw).hex()
        try:
            answered = self.tester.send_raw_transaction(raw_hex if raw_hex.startswith("0x") else "0x" + raw_hex)
        except Exception as e:
            self.refused.append({"raw": raw_hex, "why": str(e), "sender": sender})
            raise RpcError(-32000, str(e))
        assert answered == tx_hash, (answered, tx_hash)
        to = fields.get("to")
        record = {"hash": tx_hash, "sender": sender, "type": fields["type"], "chainId": fields["chainId"],
                  "nonce": fields["nonce"], "to": to_checksum_address(to) if to else None, "value": fields["value"],
                  "data": "0x" + bytes(fields["data"]).hex(), "gas": fields["gas"],
                  **{k: fields[k] for k in ("maxFeePerGas", "maxPriorityFeePerGas", "gasPrice") if k in fields},
                  "status": self.tester.get_transaction_receipt(tx_hash)["status"], "raw": raw_hex}
        self.accepted.append(record)
        self.log("ethereum test chain: accepted " + json.dumps({k: v for k, v in record.items() if k != "raw"}))
        return tx_hash


# --- Standalone: the server, or a self-check through HTTP with eth-account --------------------------
def rpc(url, method, *params):
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": list(params)}).encode()
    req = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        reply = json.loads(r.read())
    if "error" in reply:
        raise RpcError(reply["error"]["code"], reply["error"]["message"])
    return reply["result"]


def self_check(chain_id):
    """Signs with eth-account (never with this file's code) and sends over HTTP: the test chain must
    answer what a wallet needs, mine exactly what was signed, and refuse what it must."""
    Account.enable_unaudited_hdwallet_features()
    a0, a1 = (Account.from_mnemonic(MNEMONIC, account_path=f"{DEV_PATH}/{i}") for i in (0, 1))
    chain = EthereumTestChain(chain_id, quiet=True)
    url, token = chain.url, chain.token
    ok = lambda cond, what: print(("  ok: " if cond else "  FAILED: ") + what) or cond or sys.exit(1)  # noqa: E731
    try:
        ok(a0.address == "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", "account 0 of the dev mnemonic")
        ok(rpc(url, "eth_chainId") == hex(chain_id) and rpc(url, "net_version") == str(chain_id), f"chain id {chain_id}")
        ok(token == "0x5FbDB2315678afecb367f032d93F642f64180aa3", f"the token at account 0's first CREATE address: {token}")
        call = lambda data: rpc(url, "eth_call", {"to": token, "data": data}, "latest")  # noqa: E731
        ok(int(call("0x313ce567"), 16) == 18, "decimals() = 18 by eth_call")
        symbol = bytes.fromhex(call("0x95d89b41")[2:])
        ok(int.from_bytes(symbol[32:64], "big") == 3 and symbol[64:67] == b"STT", "symbol() = 'STT' (ABI string)")
        balance_of = lambda who: int(call("0x70a08231" + who[2:].lower().rjust(64, "0")), 16)  # noqa: E731
        ok(balance_of(a0.address) == TOKEN_SUPPLY, "account 0 holds the whole supply")
        ok(len(rpc(url, "eth_getCode", token, "latest")) > 100, "eth_getCode has the runtime")
        block = rpc(url, "eth_getBlockByNumber", "latest", False)
        ok(int(block["baseFeePerGas"], 16) > 0 and len(block["logsBloom"]) == 514, "a London block header (base fee, bloom)")
        fees = rpc(url, "eth_feeHistory", "0x2", "latest", [50])
        ok("baseFeePerGas" in fees and "oldestBlock" in fees, "eth_feeHistory")
        before0, before1 = (int(rpc(url, "eth_getBalance", a.address, "latest"), 16) for a in (a0, a1))
        nonce = int(rpc(url, "eth_getTransactionCount", a0.address, "pending"), 16)
        ok(nonce == 1, "account 0's nonce is 1 after the deployment")
        gas = int(rpc(url, "eth_estimateGas", {"from": a0.address, "to": a1.address, "value": hex(10 ** 16)}), 16)
        ok(gas == 21000, "eth_estimateGas of a plain transfer is 21000")
        tip, base = 10 ** 9, int(block["baseFeePerGas"], 16)
        tx = {"type": 2, "chainId": chain_id, "nonce": nonce, "to": a1.address, "value": 12345678901234567,
              "gas": gas, "maxFeePerGas": 2 * base + tip, "maxPriorityFeePerGas": tip}
        signed = a0.sign_transaction(tx)
        h = rpc(url, "eth_sendRawTransaction", "0x" + signed.raw_transaction.hex())
        ok(h == "0x" + signed.hash.hex(), "eth_sendRawTransaction answers eth-account's hash")
        receipt = rpc(url, "eth_getTransactionReceipt", h)
        ok(receipt["status"] == "0x1" and receipt["transactionHash"] == h, "mined, status 1")
        paid = int(receipt["gasUsed"], 16) * int(receipt["effectiveGasPrice"], 16)
        after0, after1 = (int(rpc(url, "eth_getBalance", a.address, "latest"), 16) for a in (a0, a1))
        ok(after1 - before1 == tx["value"] and before0 - after0 == tx["value"] + paid,
           "balances moved by exactly the value (and the fee)")
        got = rpc(url, "eth_getTransactionByHash", h)
        ok(got["hash"] == h and got["from"].lower() == a0.address.lower() and int(got["value"], 16) == tx["value"],
           "eth_getTransactionByHash")
        ok(chain.accepted[-1]["sender"] == a0.address and chain.accepted[-1]["type"] == 2, "logged: sender, type 2")
        # ERC-20 transfer (legacy EIP-155 this time, so both decoders run)
        data = "0xa9059cbb" + a1.address[2:].lower().rjust(64, "0") + hex(5 * 10 ** 18)[2:].rjust(64, "0")
        legacy = a0.sign_transaction({"chainId": chain_id, "nonce": nonce + 1, "to": token, "value": 0, "data": data,
                                      "gas": 100000, "gasPrice": base + tip})
        h2 = rpc(url, "eth_sendRawTransaction", "0x" + legacy.raw_transaction.hex())
        r2 = rpc(url, "eth_getTransactionReceipt", h2)
        ok(r2["status"] == "0x1" and len(r2["logs"]) == 1 and r2["logs"][0]["topics"][0] == "0x" + TRANSFER_TOPIC.hex(),
           "an ERC-20 transfer mined with its Transfer event")
        ok(balance_of(a1.address) == 5 * 10 ** 18 and balance_of(a0.address) == TOKEN_SUPPLY - 5 * 10 ** 18,
           "token balances moved by exactly 5 STT")
        ok(chain.accepted[-1]["type"] == 0 and chain.accepted[-1]["data"] == data, "logged: legacy, the call data")
        # refusals
        too_much = "0xa9059cbb" + a0.address[2:].lower().rjust(64, "0") + hex(6 * 10 ** 18)[2:].rjust(64, "0")
        try:
            rpc(url, "eth_estimateGas", {"from": a1.address, "to": token, "data": too_much})
            ok(False, "a transfer beyond the balance reverts")
        except RpcError:
            ok(True, "a transfer beyond the balance reverts (eth_estimateGas fails)")
        wrong = a0.sign_transaction({**tx, "chainId": chain_id + 1, "nonce": nonce + 2})
        try:
            rpc(url, "eth_sendRawTransaction", "0x" + wrong.raw_transaction.hex())
            ok(False, "another chain id is refused")
        except RpcError as e:
            ok("chain id" in str(e), "a transaction for another chain id is refused")
        flipped = bytearray(signed.raw_transaction)
        flipped[-40] ^= 1
        try:
            rpc(url, "eth_sendRawTransaction", "0x" + bytes(flipped).hex())
            ok(False, "a changed signature is refused")
        except RpcError:
            ok(True, "a transaction with a changed byte is refused (replayed nonce or another sender)")
        ok(len(chain.accepted) == 2, "exactly two transactions accepted")
        ok(rpc(url, "eth_getTransactionReceipt", "0x" + "00" * 32) is None, "an unknown receipt is null")
    finally:
        chain.stop()
    print("ethereum test chain self-check: ok")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--chain-id", type=int, default=1337)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--self-check", action="store_true")
    args = ap.parse_args()
    if args.self_check:
        self_check(args.chain_id)
        return
    chain = EthereumTestChain(args.chain_id, port=args.port)
    print(f"ethereum test chain: {chain.url} chainId {hex(args.chain_id)} token {chain.token}", flush=True)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    parent = os.getppid()
    while os.getppid() == parent:  # stops with its parent
        time.sleep(0.5)
    os._exit(0)


if __name__ == "__main__":
    main()
