#!/usr/bin/env python3
"""Drives ICRC JSON-RPC at `sigil serve`'s /v1/icrc (scripts/test.d/16-icrc-serve.sh).
Usage: icrc_serve_check.py ONLINE_BASE OFFLINE_BASE REPLICA_LOG"""
import base64
import json
import sys
import urllib.request

import cbor2
from icp_agent.agent import to_request_id

online, offline, replica_log = sys.argv[1:4]
DEV = "t2kpu-6xt6l-tyb3d-rll2p-irv5c-no5nd-h6spj-jsetq-bmqdz-iap77-pqe"  # keysmith test key 0
ARG = ("RElETAZte24AbAKzsNrDA2ithsqDBQFufW54bAb7ygECxvy2AgO6ieXCBAGi3pTrBgGC8/ORDATYo4yoDX0BBQEdP0Duk4WbdYJC1svDpO9SpE+a"
       "ElxKU7FNBuH2LAIAAAAAAMCWsQI=")  # icrc1_transfer of 0.05 ICP (agent-js, oisy-wallet-signer mocks)
n = 0


def rpc(base, method, params=None, origin="https://dapp.example"):
    global n
    n += 1
    body = {"jsonrpc": "2.0", "id": n, "method": method}
    if params is not None:
        body["params"] = params
    req = urllib.request.Request(base + "/v1/icrc", data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "Origin": origin})
    with urllib.request.urlopen(req, timeout=60) as r:
        reply = json.loads(r.read())
        if r.headers.get("Access-Control-Allow-Origin") != origin:
            sys.exit(f"CORS origin not echoed for {method}")
    if reply.get("jsonrpc") != "2.0" or reply.get("id") != n:
        sys.exit(f"bad envelope: {reply}")
    return reply


def code(reply):
    return reply.get("error", {}).get("code")


def expect(cond, what):
    if not cond:
        sys.exit("FAIL: " + what)


call = {"canisterId": "ryjl3-tyaaa-aaaaa-aaaba-cai", "sender": DEV, "method": "icrc1_transfer", "arg": ARG}
expect(rpc(online, "icrc29_status")["result"] == "ready", "status")
names = [s["name"] for s in rpc(online, "icrc25_supported_standards")["result"]["supportedStandards"]]
expect({"ICRC-25", "ICRC-27", "ICRC-29", "ICRC-49"} <= set(names), f"standards {names}")
perms = rpc(online, "icrc25_request_permissions",
            {"scopes": [{"method": "icrc27_accounts"}, {"method": "icrc49_call_canister"}]})["result"]["scopes"]
expect(all(s["state"] == "granted" for s in perms), f"permissions {perms}")
accounts = rpc(online, "icrc27_accounts")["result"]["accounts"]
expect([a["owner"] for a in accounts] == [DEV], f"accounts {accounts}")

result = rpc(online, "icrc49_call_canister", call)["result"]
content = cbor2.loads(base64.b64decode(result["contentMap"]))
content = dict(content) if not isinstance(content, cbor2.CBORTag) else dict(content.value)
rid = to_request_id({k: (list(v) if isinstance(v, tuple) else v) for k, v in content.items()})
expect(content["method_name"] == "icrc1_transfer" and content["arg"] == base64.b64decode(ARG), "content")
cert = cbor2.loads(base64.b64decode(result["certificate"]))
cert = cert.value if isinstance(cert, cbor2.CBORTag) else cert
expect(rid in cbor2.dumps(cert["tree"]), "certificate does not name the request id")
log = open(replica_log).read()
expect(f"call accepted {rid.hex()}" in log and f"read_state answered {rid.hex()}" in log, f"replica log: {log}")

# (A rejected permission giving 3000 needs a person: IcrcServiceTests; here everything is auto-approved.)
blind = dict(call, method="set_controller")
expect(code(rpc(online, "icrc49_call_canister", blind)) == 2001, "blind signing not refused")
stranger = dict(call, sender="2vxsx-fae")
expect(code(rpc(online, "icrc49_call_canister", stranger)) == 3000, "foreign sender not refused")
expect(code(rpc(online, "icrc99_unknown")) == 2000, "unknown method")

# Offline: the call is refused with 4000 and nothing reaches the replica.
before = open(replica_log).read().count("call accepted")
rpc(offline, "icrc25_request_permissions", {"scopes": [{"method": "icrc49_call_canister"}]})
reply = rpc(offline, "icrc49_call_canister", call)
# ICRC-25: 4000's data is {status, message} from an HTTP answer; none came, so no data.
expect(code(reply) == 4000 and "data" not in reply["error"], f"offline {reply}")
expect(open(replica_log).read().count("call accepted") == before, "offline call reached the replica")
print("icrc checks ok", file=sys.stderr)

# The ICRC-29 relay accepts a claimed origin only from the signer page itself (same-origin request).
def relay_status(origin, claimed):
    headers = {"Content-Type": "application/json", "Origin": origin}
    if claimed:
        headers["X-Sigil-ICRC29-Origin"] = claimed
    req = urllib.request.Request(online + "/v1/icrc29", method="POST", headers=headers,
                                 data=json.dumps({"jsonrpc": "2.0", "id": 1, "method": "icrc27_accounts"}).encode())
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


import urllib.error  # noqa: E402

expect(relay_status("https://evil.example", "https://dapp.example") == 403, "relay from a foreign page refused")
expect(relay_status(online, None) == 403, "relay without the dapp's origin refused")
expect(relay_status(online, online) == 403, "relay claiming Sigil's own origin refused")
expect(relay_status(online, "https://dapp.example") == 200, "relay from the signer page accepted")
print("icrc relay checks ok", file=sys.stderr)
