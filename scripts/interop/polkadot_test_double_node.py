"""PolkadotTestDoubleNode: a TEST DOUBLE of a Polkadot node's JSON-RPC, for Sigil's tests only.

A small HTTP JSON-RPC server on 127.0.0.1 (free port, CORS open, as a public RPC endpoint is) that
answers what `@polkadot/api` (HttpProvider) asks while connecting and signing: the runtime metadata
(Polkadot's v14, `state_getMetadata`, as real nodes serve it), the runtime version, the genesis hash,
one best and finalized block header, chain properties and an account's next nonce. It executes
nothing. `author_submitExtrinsic` is accepted only after the extrinsic was checked with independent
code: decoded with py-scale-codec (`scalecodec`, the decoder substrate-interface uses) against that
metadata, the payload the chain checks rebuilt from the decoded fields with scalecodec's encoders
(call, then each signed extension's extra, then its additional-signed data; BLAKE2b-256 above 256
bytes), and the sr25519 signature verified with schnorrkel (py-sr25519-bindings). The answer is the
extrinsic's BLAKE2b-256 hash, as a node answers.
"""
import hashlib
import json
import pathlib
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import sr25519
from scalecodec.base import RuntimeConfigurationObject, ScaleBytes
from scalecodec.type_registry import load_type_registry_preset
from scalecodec.utils.ss58 import ss58_decode

ROOT = pathlib.Path(__file__).resolve().parents[2]
METADATA = ROOT / "Tests/ScaleCodecTests/Resources/polkadot-v14.scale"
VERSION = json.loads((ROOT / "Tests/ScaleCodecTests/Resources/polkadot-v14.version.json").read_text())
GENESIS = bytes.fromhex("91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3")
BEST_NUMBER = 22_000_000


def blake2_256(data):
    return hashlib.blake2b(data, digest_size=32).digest()


def compact(n):
    if n < 1 << 6:
        return bytes([n << 2])
    if n < 1 << 14:
        return ((n << 2) | 1).to_bytes(2, "little")
    if n < 1 << 30:
        return ((n << 2) | 2).to_bytes(4, "little")
    b = n.to_bytes((n.bit_length() + 7) // 8, "little")
    return bytes([((len(b) - 4) << 2) | 3]) + b


class PolkadotTestDoubleNode:
    def __init__(self, nonces=None):
        self.raw_metadata = METADATA.read_bytes()
        self.runtime = RuntimeConfigurationObject()
        self.runtime.update_type_registry(load_type_registry_preset("core"))
        self.runtime.update_type_registry(load_type_registry_preset("legacy"))
        self.metadata = self.runtime.create_scale_object("MetadataVersioned", data=ScaleBytes(self.raw_metadata))
        self.metadata.decode()
        self.runtime.add_portable_registry(self.metadata)
        # account id (hex) → next nonce; dapps ask with the chain's SS58 format or any other
        self.nonces = {ss58_decode(address): nonce for address, nonce in (nonces or {}).items()}
        # One block, best and finalized: its header, and its hash as the chain computes it (BLAKE2b-256
        # of the SCALE header: parent, compact number, state root, extrinsics root, empty digest).
        parent, state, extrinsics = b"\x11" * 32, b"\x22" * 32, b"\x33" * 32
        self.header = {"parentHash": "0x" + parent.hex(), "number": hex(BEST_NUMBER), "stateRoot": "0x" + state.hex(),
                       "extrinsicsRoot": "0x" + extrinsics.hex(), "digest": {"logs": []}}
        self.best_hash = blake2_256(parent + compact(BEST_NUMBER) + state + extrinsics + compact(0))
        self.accepted = []  # decoded extrinsics that verified, with their hashes
        self.refused = []  # (hex, reason)
        self.calls = []  # every JSON-RPC method asked, in order
        node = self

        class Handler(BaseHTTPRequestHandler):
            def do_OPTIONS(self):
                self.send_response(204)
                self.cors()
                self.send_header("Access-Control-Allow-Methods", "POST")
                self.send_header("Access-Control-Allow-Headers", "content-type")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                try:
                    request = json.loads(self.rfile.read(length))
                except ValueError:
                    return self.answer({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}})
                method, params = request.get("method"), request.get("params") or []
                with node.lock:
                    node.calls.append((method, params) if method == "state_getStorage" else method)
                try:
                    body = {"result": node.handle(method, params)}
                except NodeError as e:
                    body = {"error": {"code": e.code, "message": str(e)}}
                self.answer({"jsonrpc": "2.0", "id": request.get("id"), **body})

            def cors(self):
                self.send_header("Access-Control-Allow-Origin", "*")

            def answer(self, body):
                data = json.dumps(body).encode()
                self.send_response(200)
                self.cors()
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()

    def handle(self, method, params):
        best = "0x" + self.best_hash.hex()
        if method == "rpc_methods":
            return {"methods": sorted(ANSWERED), "version": 1}
        if method == "chain_getBlockHash":
            number = params[0] if params else None
            if number in (0, "0x0", "0x00"):
                return "0x" + GENESIS.hex()
            return best
        if method in ("chain_getFinalizedHead", "chain_getFinalisedHead"):
            return best
        if method == "chain_getHeader":
            return self.header
        if method == "state_getRuntimeVersion":
            return {"specName": VERSION["specName"], "implName": VERSION["implName"],
                    "authoringVersion": VERSION["authoringVersion"], "specVersion": VERSION["specVersion"],
                    "implVersion": VERSION["implVersion"], "transactionVersion": VERSION["transactionVersion"],
                    "stateVersion": 1, "apis": []}
        if method == "state_getMetadata":
            return "0x" + self.raw_metadata.hex()
        if method == "system_properties":
            return {"ss58Format": 0, "tokenDecimals": 10, "tokenSymbol": "DOT"}
        if method == "system_chain":
            return "Polkadot"
        if method == "system_name":
            return "sigil-test-double-node"
        if method == "system_version":
            return "0.0.0-test-double"
        if method == "system_accountNextIndex":
            return self.nonces.get(ss58_decode(params[0]), 0)
        if method == "state_getStorage":
            return self.storage(params[0] if params else "")
        if method == "author_submitExtrinsic":
            return self.submit(params[0])
        raise NodeError(-32601, f"Method not found: {method} (a test double answers only {sorted(ANSWERED)})")

    def storage(self, key):
        """System.Account of an account this node knows (AccountInfo: nonce, consumers, providers,
        sufficients, then free, reserved, frozen, flags as u128), else None as for an absent key."""
        prefix = "0x26aa394eea5630e07c48ae0c9558cef7b99d880ec681799c0cf30e8886371da9"
        if not key.startswith(prefix) or len(key) != len(prefix) + 32 + 64:
            return None
        account = bytes.fromhex(key[-64:])
        for account_id, nonce in self.nonces.items():
            if account_id == account.hex():
                info = nonce.to_bytes(4, "little") + (0).to_bytes(4, "little") + (1).to_bytes(4, "little")
                info += (0).to_bytes(4, "little") + (10**16).to_bytes(16, "little") + bytes(48)
                return "0x" + info.hex()
        return None

    def submit(self, extrinsic_hex):
        try:
            decoded = self.verify(extrinsic_hex)
        except Exception as e:  # a decoder's refusal of any kind: the transaction is invalid
            with self.lock:
                self.refused.append((extrinsic_hex, str(e)))
            raise NodeError(1010, f"Invalid Transaction: {e}") from None
        tx_hash = "0x" + blake2_256(bytes.fromhex(extrinsic_hex[2:])).hex()
        with self.lock:
            self.accepted.append(dict(decoded, hash=tx_hash, hex=extrinsic_hex))
        return tx_hash

    def verify(self, extrinsic_hex):
        """Decodes with scalecodec and checks the signature with schnorrkel, or raises."""
        extrinsic = self.runtime.create_scale_object("Extrinsic", data=ScaleBytes(extrinsic_hex),
                                                     metadata=self.metadata)
        value = extrinsic.decode()
        if not value.get("signature"):
            raise NodeError(1010, "unsigned")
        signature = value["signature"]
        if "Sr25519" not in signature:
            raise NodeError(1010, f"only sr25519 is checked by this test double: {list(signature)}")
        signer = bytes.fromhex(value["address"][2:]) if value["address"].startswith("0x") else None
        if signer is None or len(signer) != 32:
            raise NodeError(1010, f"address {value['address']!r} is not an account id")
        # The payload the chain checks: the call and each signed extension's extra exactly as scalecodec
        # split them out of the extrinsic (by the metadata's types), then the additional-signed data
        # this node knows (its runtime version, genesis, the block the era is anchored at).
        parts = extrinsic.value_object
        payload = parts["call"].get_used_bytes()
        extra = b""
        additional = b""
        for extension in self.metadata[1][1]["extrinsic"]["signed_extensions"].value:
            name = extension["identifier"]
            field = {"CheckMortality": "era", "CheckNonce": "nonce", "ChargeTransactionPayment": "tip",
                     "CheckMetadataHash": "mode"}.get(name)
            if field is not None:
                extra += parts[field].get_used_bytes()
            if name == "CheckSpecVersion":
                additional += VERSION["specVersion"].to_bytes(4, "little")
            elif name == "CheckTxVersion":
                additional += VERSION["transactionVersion"].to_bytes(4, "little")
            elif name == "CheckGenesis":
                additional += GENESIS
            elif name == "CheckMortality":
                # Immortal: the genesis hash; mortal: the block the era starts at (this node's only one).
                era = parts["era"].get_used_bytes()
                additional += GENESIS if era == b"\x00" else self.best_hash
            elif name == "CheckMetadataHash":
                # Mode 0 signs None; this test double holds no metadata hash to check mode 1 against.
                if parts["mode"].get_used_bytes() != b"\x00":
                    raise NodeError(1010, f"CheckMetadataHash mode {value['mode']!r}: not checked by this test double")
                additional += b"\x00"
        data = bytes(payload) + bytes(extra) + additional
        if len(data) > 256:
            data = blake2_256(data)
        sig = bytes.fromhex(signature["Sr25519"][2:])
        if not sr25519.verify(sig, data, signer):
            raise NodeError(1010, "BadProof: the sr25519 signature does not verify over the payload")
        return {"signer": "0x" + signer.hex(), "call": value["call"], "nonce": value["nonce"], "tip": value["tip"],
                "era": value["era"], "mode": value["mode"]}


class NodeError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


ANSWERED = ["rpc_methods", "state_getStorage", "chain_getBlockHash", "chain_getFinalizedHead", "chain_getFinalisedHead", "chain_getHeader",
            "state_getRuntimeVersion", "state_getMetadata", "system_properties", "system_chain", "system_name",
            "system_version", "system_accountNextIndex", "author_submitExtrinsic"]
