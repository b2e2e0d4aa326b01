#!/usr/bin/env python3
"""Signs one message through a running gateway's HTTP API, acting as a dapp page and as the person
on the approval page (docs/protocol.md §2, §3; the approval API as the page uses it). Used by
scripts/container-test and scripts/docker-smoke; standard library only.

    sign_through_api.py GATEWAY_URL APPROVAL_URL   (APPROVAL_URL with #token=…)

Prints one JSON line {"address", "publicKey", "type", "message", "signature"} where `message` is the
exact text signed (`<Bytes>…</Bytes>`), for the caller to verify with `sigil key verify`.
"""
import json
import sys
import time
import urllib.error
import urllib.request

SITE = "https://rehearsal.example"
SESSION = "dockerrehearsal01"
TEXT = "sigil container check"


def http(method, url, headers, body=None, timeout=30):
    request = urllib.request.Request(url, data=body, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def sign(gateway, approval_url, deadline_seconds=60):
    ui, _, token = approval_url.partition("/#token=")
    if not token:
        raise SystemExit(f"no #token= in the approval URL {approval_url!r}")
    deadline = time.monotonic() + deadline_seconds
    dapp = {"Origin": SITE, "Content-Type": "application/json", "X-Sigil-Session": SESSION}
    person = {"Origin": ui, "Content-Type": "application/json", "X-Sigil-Token": token,
              "Sec-Fetch-Site": "same-origin"}

    def send(rid, message, request):
        status, body = http("POST", gateway + "/v1/request", dapp,
                            json.dumps({"id": rid, "message": message, "request": request}).encode())
        if status not in (200, 202):
            raise SystemExit(f"{message}: HTTP {status} {body[:200]!r}")
        return json.loads(body)

    def state():
        status, body = http("GET", ui + "/api/state", {"X-Sigil-Token": token})
        if status != 200:
            raise SystemExit(f"/api/state: HTTP {status}")
        return json.loads(body)

    def pending_one():
        while time.monotonic() < deadline:
            pending = state()["pending"]
            if pending:
                return pending[0]
            time.sleep(0.05)
        raise SystemExit("no request reached the approval page")

    def approve(item, **extra):
        status, body = http("POST", ui + "/api/approve", person, json.dumps({"id": item["id"], **extra}).encode())
        if status != 200:
            raise SystemExit(f"/api/approve: HTTP {status} {body[:200]!r}")

    def reply_for(rid, after=""):
        # Long-poll twin of the event stream (held up to 25 s per call).
        while time.monotonic() < deadline:
            status, body = http("GET", f"{gateway}/v1/poll?session={SESSION}&after={after}", {"Origin": SITE})
            if status != 200:
                raise SystemExit(f"/v1/poll: HTTP {status}")
            events = json.loads(body)["events"]
            for event in events:
                if event["data"].get("id") == rid:
                    return event["data"]
            if events:
                after = events[-1]["eventId"]
        raise SystemExit(f"no reply for {rid}")

    first = send("1", "pub(authorize.tab)", {"origin": "container check"})
    accounts = state()["accounts"]
    if not accounts:
        raise SystemExit("the gateway offers no account")
    account = accounts[0]
    if first.get("pending"):
        item = pending_one()
        if item["kind"] != "authorize":
            raise SystemExit(f"expected an authorize request, got {item['kind']}")
        approve(item, accounts=[account["key"]])
        granted = reply_for("1")
    else:
        granted = first
    if account["address"] not in granted.get("response", {}).get("authorizedAccounts", []):
        raise SystemExit(f"the site was not granted the account: {granted}")
    data = "0x" + TEXT.encode().hex()
    answer = send("2", "pub(bytes.sign)", {"address": account["address"], "data": data, "type": "bytes"})
    if answer.get("pending"):
        item = pending_one()
        if item["kind"] != "bytes":
            raise SystemExit(f"expected a bytes request, got {item['kind']}")
        approve(item)
        answer = reply_for("2")
    if "response" not in answer:
        raise SystemExit(f"signing failed: {answer}")
    http("POST", gateway + "/v1/session/close", dapp, b"{}")
    return {"address": account["address"], "publicKey": account["key"], "type": account["type"],
            "message": f"<Bytes>{TEXT}</Bytes>", "signature": answer["response"]["signature"]}


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    print(json.dumps(sign(sys.argv[1].rstrip("/"), sys.argv[2])))
