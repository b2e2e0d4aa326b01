"""extrinsic.sign through HTTP at 1 and 32 concurrent clients (see scripts/bench-sign)."""
import argparse
import asyncio
import json
import statistics
import time

from sigil_process import SigilProcess

ALICE = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"
PAYLOAD = {
    "address": ALICE, "blockHash": "0x" + "11" * 32, "blockNumber": "0x014fb1fb", "era": "0xb503",
    "genesisHash": "0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3",
    "method": "0x050300" + "8eaf04151687736326c9fea17e25fc5287613693c912909cb226aa4794f26a48" + "0700e40b5402",
    "mode": 0, "nonce": "0x00000007", "signedExtensions": [
        "AuthorizeCall", "CheckNonZeroSender", "CheckSpecVersion", "CheckTxVersion", "CheckGenesis", "CheckMortality",
        "CheckNonce", "CheckWeight", "ChargeTransactionPayment", "PrevalidateAttests", "CheckMetadataHash"],
    "specVersion": "0x000f5d99", "tip": "0x00000000000000000000000000000000", "transactionVersion": "0x0000001a",
    "version": 4, "withSignedTransaction": False,
}


class Client:
    def __init__(self, host, port, token, session):
        self.host, self.port, self.token, self.session = host, port, token, session
        self.n = 0
        self.reconnects = 0

    async def connect(self):
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def call(self, message, request):
        try:
            return await self._call(message, request)
        except (ConnectionError, EOFError, asyncio.IncompleteReadError):
            # The server closed a keep-alive connection between requests (as HTTP allows);
            # reconnect and retry once, as browsers do.
            self.reconnects += 1
            self.writer.close()
            await self.connect()
            return await self._call(message, request)

    async def _call(self, message, request):
        self.n += 1
        body = json.dumps({"id": f"b{self.n}", "message": message, "request": request}).encode()
        head = (f"POST /v1/request HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nAuthorization: Bearer {self.token}\r\n"
                f"X-Sigil-Session: {self.session}\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n")
        self.writer.write(head.encode() + body)
        status = await self.reader.readline()
        if not status:
            raise EOFError("connection closed")
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        raw = await self.reader.readexactly(length)
        if not raw:
            raise RuntimeError(f"empty reply: {status!r}")
        data = json.loads(raw)
        if not status.startswith(b"HTTP/1.1 200") or "error" in data:
            raise RuntimeError(f"{status!r} {data}")
        return data["response"]


async def run(host, port, token, clients, seconds):
    cs = [Client(host, port, token, f"benchsession{i:04d}") for i in range(clients)]
    for c in cs:
        await c.connect()
        await c.call("pub(authorize.tab)", {"origin": "bench"})
    for c in cs:  # warm-up
        await c.call("pub(extrinsic.sign)", PAYLOAD)
    latencies = []
    deadline = time.perf_counter() + seconds

    async def worker(c):
        while time.perf_counter() < deadline:
            t = time.perf_counter()
            r = await c.call("pub(extrinsic.sign)", PAYLOAD)
            latencies.append(time.perf_counter() - t)
            assert r["signature"].startswith("0x01") and len(r["signature"]) == 132
    start = time.perf_counter()
    await asyncio.gather(*(worker(c) for c in cs))
    elapsed = time.perf_counter() - start
    for c in cs:
        c.writer.close()
    latencies.sort()
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000
    return len(latencies) / elapsed, p(0.50), p(0.99), len(latencies), sum(c.reconnects for c in cs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sigil", required=True)
    ap.add_argument("--seconds", type=float, default=5)
    ap.add_argument("--serve-arg", action="append", default=[],
                    help="an extra `sigil serve` argument (scripts/bench-journal: --no-journal, --data-dir=…)")
    args = ap.parse_args()
    sigil = SigilProcess(args.sigil, "--auto-approve", "--client", "bench", *args.serve_arg)
    try:
        host, port = sigil.gateway[len("http://"):].rsplit(":", 1)
        token = sigil.client_tokens["bench"]
        extra = "".join(" " + a for a in args.serve_arg)
        print(f"extrinsic.sign via HTTP, sigil serve --dev --auto-approve{extra}, {args.seconds:g} s per run")
        print("| clients | signatures/s | p50 ms | p99 ms | requests | reconnects |")
        print("|--------:|-------------:|-------:|-------:|---------:|-----------:|")
        for clients in (1, 32):
            rate, p50, p99, n, re = asyncio.run(run(host, int(port), token, clients, args.seconds))
            print(f"| {clients:7d} | {rate:12.0f} | {p50:6.2f} | {p99:6.2f} | {n:8d} | {re:10d} |")
    finally:
        sigil.stop()


if __name__ == "__main__":
    main()
