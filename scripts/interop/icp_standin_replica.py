#!/usr/bin/env python3
"""A stand-in Internet Computer replica for scripts/test.d/16-icrc-serve.sh.

TEST DOUBLE for the network, not a replica: it executes nothing and its certificates carry no BLS
signature. What it does check, with independent libraries (icp-py-core's request id and principals,
cbor2, coincurve, PyNaCl), is every envelope Sigil submits, as a replica would before accepting it:
the self-describe tag, request type, canister id against the URL, ingress_expiry in (now, now + 5 min
+ 60 s drift], sender = self-authenticating principal of sender_pubkey, sender_sig over
b"\\x0aic-request" + request id (secp256k1 low-S or Ed25519). A call it accepts is recorded as
`replied` (reply = Candid `()`); read_state (checked the same way, same sender, path
request_status/<id>) answers {certificate} whose tree holds request_status/<id>/status and reply.

Prints "port N" once listening; writes one line per decision to stderr.
"""
import hashlib
import http.server
import sys
import time

import cbor2
import coincurve
import nacl.signing
from icp_agent.agent import to_request_id
from icp_principal.principal import Principal

SECP_PREFIX = bytes.fromhex("3056301006072a8648ce3d020106052b8104000a034200")
ED_PREFIX = bytes.fromhex("302a300506032b6570032100")
N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
replied = {}


def thaw(v):
    if isinstance(v, dict) or type(v).__name__ == "frozendict":
        return {k: thaw(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [thaw(x) for x in v]
    return v


def check_envelope(raw, want_type):
    if not raw.startswith(b"\xd9\xd9\xf7"):
        raise ValueError("no self-describe tag")
    env = thaw(cbor2.loads(raw))
    content, der, sig = env["content"], env["sender_pubkey"], env["sender_sig"]
    if content.get("request_type") != want_type:
        raise ValueError("request_type")
    now = time.time_ns()
    if not now < content["ingress_expiry"] <= now + 360 * 10**9:
        raise ValueError("ingress_expiry out of range")
    if Principal.self_authenticating(der).bytes != content["sender"]:
        raise ValueError("sender is not the key's principal")
    rid = to_request_id(content)
    msg = b"\x0aic-request" + rid
    if der.startswith(SECP_PREFIX) and len(der) == 88:
        if int.from_bytes(sig[32:], "big") > N // 2:
            raise ValueError("high-S signature")
        der_sig = coincurve.ecdsa.cdata_to_der(coincurve.ecdsa.deserialize_compact(sig))
        if not coincurve.PublicKey(der[23:]).verify(der_sig, msg, hasher=lambda m: hashlib.sha256(m).digest()):
            raise ValueError("bad secp256k1 signature")
    elif der.startswith(ED_PREFIX) and len(der) == 44:
        nacl.signing.VerifyKey(der[12:]).verify(msg, sig)
    else:
        raise ValueError("unsupported public key")
    return content, rid


def certificate(rid):
    leaf = lambda v: [3, v]
    labeled = lambda l, t: [2, l, t]
    fork = lambda a, b: [1, a, b]
    tree = labeled(b"request_status", labeled(rid, fork(labeled(b"reply", leaf(b"DIDL\x00\x00")),
                                                         labeled(b"status", leaf(b"replied")))))
    return cbor2.dumps(cbor2.CBORTag(55799, {"tree": tree, "signature": b"stand-in replica: no BLS signature"}))


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def answer(self, status, body=b""):
        self.send_response(status)
        self.send_header("Content-Type", "application/cbor")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        parts = self.path.strip("/").split("/")  # api v2 canister <id> call|read_state
        if len(parts) != 5 or parts[:3] != ["api", "v2", "canister"]:
            return self.answer(404)
        canister, kind = parts[3], parts[4]
        try:
            if kind == "call":
                content, rid = check_envelope(body, "call")
                if Principal(content["canister_id"]).to_str() != canister:
                    raise ValueError("canister id does not match the URL")
                replied[rid] = content["sender"]
                print(f"call accepted {rid.hex()} {content['method_name']}", file=sys.stderr, flush=True)
                return self.answer(202)
            if kind == "read_state":
                content, _ = check_envelope(body, "read_state")
                paths = content["paths"]
                if len(paths) != 1 or len(paths[0]) != 2 or paths[0][0] != b"request_status":
                    raise ValueError("read_state path")
                rid = paths[0][1]
                if replied.get(rid) != content["sender"]:
                    raise ValueError("unknown request or another sender")
                print(f"read_state answered {rid.hex()}", file=sys.stderr, flush=True)
                return self.answer(200, cbor2.dumps({"certificate": certificate(rid)}))
        except Exception as e:  # noqa: BLE001 - every refusal is a 400 with the reason
            print(f"refused {kind}: {e}", file=sys.stderr, flush=True)
            return self.answer(400, str(e).encode())
        return self.answer(404)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(f"port {server.server_address[1]}", flush=True)
server.serve_forever()
