"""IconTestDoubleNode: a TEST DOUBLE of an ICON node, for Sigil's tests only (never a real node).

A small JSON-RPC v3 server on 127.0.0.1 (free port) that answers `icx_sendTransaction` the way a
goloop node checks a submitted transaction, using independent code: the hash is computed with the
ICON Python SDK's serializer (iconsdk.libs.serializer.generate_message) from the params without
`signature`, the public key is recovered from the Base64 `r ‖ s ‖ recid` signature with coincurve
(libsecp256k1), and its ICON address (iconsdk public_key_to_address) must equal `from`. Only then is
the transaction recorded and `0x<hash>` answered; anything else is a JSON-RPC error.

Hooks for failure tests: a transaction whose `value` is in `refuse_values` is refused like a node
refusing it (-32600 after verification); one whose value is in `wrong_hash_values` is answered with
a different hash (a misbehaving node), so Sigil must not report it.
"""
import base64
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import coincurve
from iconsdk.libs import serializer
from iconsdk.wallet.wallet import public_key_to_address


class IconTestDoubleNode:
    def __init__(self):
        self.accepted = []  # (params, hash) of every verified transaction
        self.refused = []  # (params, reason)
        self.refuse_values = set()
        self.wrong_hash_values = set()
        self.lock = threading.Lock()
        node = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                try:
                    request = json.loads(self.rfile.read(length))
                except ValueError:
                    return self.answer({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}})
                rid = request.get("id")
                if request.get("method") != "icx_sendTransaction":
                    return self.answer({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "method not found"}})
                ok, result = node.verify(request.get("params"))
                if ok:
                    self.answer({"jsonrpc": "2.0", "id": rid, "result": result})
                else:
                    self.answer({"jsonrpc": "2.0", "id": rid, "error": {"code": -32600, "message": result}})

            def answer(self, body):
                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/api/v3"

    def verify(self, params):
        """(True, "0x<hash>") for a transaction a node would accept, else (False, reason)."""
        if not isinstance(params, dict) or "signature" not in params:
            return self.refuse(params, "no signature")
        unsigned = {k: v for k, v in params.items() if k != "signature"}
        try:
            msg_hash = bytes.fromhex(serializer.generate_message(unsigned))
            sig = base64.b64decode(params["signature"], validate=True)
            if len(sig) != 65:
                return self.refuse(params, "signature is not 65 bytes")
            pub = coincurve.PublicKey.from_signature_and_message(sig, msg_hash, hasher=None)
        except Exception as e:  # noqa: BLE001 - any failure is a refusal
            return self.refuse(params, f"cannot verify: {e}")
        if public_key_to_address(pub.format(compressed=False)) != params.get("from"):
            return self.refuse(params, "signature does not recover to from")
        if params.get("value") in self.refuse_values:
            return self.refuse(params, "refused by the test double (insufficient balance)")
        tx_hash = "0x" + msg_hash.hex()
        with self.lock:
            self.accepted.append((params, tx_hash))
        if params.get("value") in self.wrong_hash_values:
            return True, "0x" + "ab" * 32
        return True, tx_hash

    def refuse(self, params, reason):
        with self.lock:
            self.refused.append((params, reason))
        return False, reason

    def stop(self):
        self.server.shutdown()
