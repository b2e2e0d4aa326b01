#!/usr/bin/env python3
"""Interop of Sigil's BIP32 derivation, ICON keys and ICON v3 transactions (IconCodec) with
independent implementations from PyPI, through the IconInterop JSON-lines filter.

- BIP32 / BIP39: bip-utils (its own HMAC-SHA512 CKD over coincurve/ecdsa, its own BIP39 seed
  generator, Bip44Coins.ICON addresses at m/44'/74'/0'/0/n).
- ICON keys and signatures: iconsdk (KeyWallet address, signer.sign) and coincurve public-key
  recovery; both directions (Sigil signs, the SDK recovers; the SDK signs, Sigil recovers).
- Transactions: iconsdk.libs.serializer.serialize / generate_message on random seeded
  transactions (nested data, escaping, unicode values); Sigil's signature recovers to `from`;
  one-change mutations are refused with the expected IconCodecError code.

Usage: bip32_icon_interop.py PATH-TO-IconInterop [--rounds N] [--seed S]
All keys are random throwaway keys. Exits non-zero on any disagreement.
"""
import argparse
import base64
import hashlib
import json
import random
import subprocess
import sys
import unicodedata

import coincurve
from bip_utils import (Bip32Secp256k1, Bip39MnemonicGenerator, Bip39SeedGenerator, Bip44, Bip44Changes,
                       Bip44Coins)
from iconsdk.libs import serializer, signer
from iconsdk.wallet.wallet import KeyWallet, public_key_to_address

failures = 0
counts = {}


def fail(what):
    global failures
    failures += 1
    print("FAIL:", what, file=sys.stderr)
    if failures > 10:
        sys.exit(1)


def check(kind, ok, what):
    counts[kind] = counts.get(kind, 0) + 1
    if not ok:
        fail(f"{kind}: {what}")


class Filter:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, request):
        self.p.stdin.write(json.dumps(request, ensure_ascii=False) + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line:
            sys.exit("IconInterop exited")
        return json.loads(line)


def random_path(rng, depth):
    parts = ["m"]
    for _ in range(depth):
        i = rng.choice([0, 1, 2, 44, 74, rng.randrange(2**31), 2**31 - 1])
        parts.append(f"{i}'" if rng.random() < 0.5 else str(i))
    return "/".join(parts)


def bip32_rounds(f, rng, n):
    for _ in range(n):
        seed = rng.randbytes(rng.choice([16, 32, 64, rng.randrange(16, 65)]))
        path = random_path(rng, rng.randrange(0, 7))
        got = f.ask({"op": "bip32", "seed": seed.hex(), "path": path})
        ctx = Bip32Secp256k1.FromSeed(seed).DerivePath(path[2:] if path != "m" else "")
        check("bip32", got.get("xprv") == ctx.PrivateKey().ToExtended(), f"xprv {seed.hex()} {path}")
        check("bip32", got.get("xpub") == ctx.PublicKey().ToExtended(), f"xpub {seed.hex()} {path}")


def passphrase(rng):
    return rng.choice(["", "", "TREZOR", "pass word", "caf\u00e9", "cafe\u0301", "\u2163\u00bd", "x" * 40])


def mnemonic_rounds(f, rng, n):
    for _ in range(n):
        phrase = str(Bip39MnemonicGenerator().FromEntropy(rng.randbytes(rng.choice([16, 20, 24, 28, 32]))))
        pw = passphrase(rng)
        index = rng.choice([0, 1, 2, rng.randrange(2**31)])
        path = f"m/44'/74'/0'/0/{index}"
        got = f.ask({"op": "mnemonic", "phrase": phrase, "passphrase": pw, "path": path})
        seed = Bip39SeedGenerator(phrase).Generate(pw)
        check("bip39-seed", got.get("seed") == seed.hex(), f"seed of a {len(phrase.split())}-word phrase, {pw!r}")
        icon = (Bip44.FromSeed(seed, Bip44Coins.ICON).Purpose().Coin().Account(0)
                .Change(Bip44Changes.CHAIN_EXT).AddressIndex(index))
        check("icon-bip44", got.get("address") == icon.PublicKey().ToAddress(), f"address at {path}")
        wallet = KeyWallet.load(bytes.fromhex(got.get("secret", "00")))
        check("icon-bip44", wallet.get_address() == got.get("address"), f"iconsdk address at {path}")


BAD_PATHS = ["", "M/0", "m/", "m//1", "m/1/", "m/2147483648", "m/-1", "m/01", "m/0x1", "m/1 ", " m", "m/1''",
             "m/a", "m\\1", "m/+1", "m/99999999999"]


def path_rounds(f, rng):
    for bad in BAD_PATHS:
        got = f.ask({"op": "path", "path": bad})
        check("path-refusal", got.get("code") == "invalidDerivationPath", f"path {bad!r} -> {got}")
    for _ in range(50):
        path = random_path(rng, rng.randrange(0, 10))
        got = f.ask({"op": "path", "path": path.replace("'", rng.choice(["'", "h", "H"]))})
        check("path", got.get("canonical") == path, f"path {path}")


def key_rounds(f, rng, n):
    for _ in range(n):
        wallet = KeyWallet.create()
        secret = wallet.get_private_key()
        msg_hash = rng.randbytes(32)
        got = f.ask({"op": "key", "secret": secret, "hash": msg_hash.hex()})
        check("icon-key", got.get("address") == wallet.get_address(), "address")
        check("icon-key", got.get("publicXY") == wallet.get_public_key(compressed=False)[2:], "public key")
        sig = base64.b64decode(got.get("signature", ""))
        check("icon-sign", sig == signer.sign(msg_hash, bytes.fromhex(secret)), "signature bytes = iconsdk's")
        pub = coincurve.PublicKey.from_signature_and_message(sig, msg_hash, hasher=None)
        check("icon-sign", public_key_to_address(pub.format(compressed=False)) == wallet.get_address(), "recovery")
        # The SDK signs, Sigil recovers.
        theirs = wallet.sign(msg_hash)
        got = f.ask({"op": "recover", "hash": msg_hash.hex(), "signature": base64.b64encode(theirs).decode()})
        check("icon-recover", got.get("address") == wallet.get_address(), "Sigil recovers iconsdk's signature")
        bad = bytearray(theirs)
        bad[rng.randrange(64)] ^= 1 << rng.randrange(8)
        got = f.ask({"op": "recover", "hash": msg_hash.hex(), "signature": base64.b64encode(bytes(bad)).decode()})
        check("icon-recover", got.get("address") != wallet.get_address(), "corrupted signature does not recover")


def t_int(rng, bits=64):
    return hex(rng.choice([0, 1, rng.randrange(2**bits)]))


def address(rng, prefix=None):
    return (prefix or rng.choice(["hx", "cx"])) + rng.randbytes(20).hex()


TEXT = ["", "a", "a.b", "x\\y", "{}", "[]", "a.b\\c{d}[e]", "caf\u00e9", "\U0001F600 ok", "0x10", "line\nbreak",
        "tab\t", "\u00e9\u0301"]


def data_value(rng, depth):
    r = rng.random()
    if depth > 3 or r < 0.45:
        return rng.choice(TEXT + [hex(rng.randrange(2**80)), address(rng)])
    if r < 0.55:
        return None
    if r < 0.75:
        return [data_value(rng, depth + 1) for _ in range(rng.randrange(0, 4))]
    keys = rng.sample(["_to", "_value", "a", "B", "z9", "key_", "Zeta", "_", "params", "data", "x-y", "k k"],
                      rng.randrange(0, 5))
    return {k: data_value(rng, depth + 1) for k in keys}


def random_tx(rng, sender):
    tx = {"version": "0x3", "from": sender, "to": address(rng), "stepLimit": t_int(rng, 32),
          "timestamp": hex(rng.randrange(2**52)), "nid": rng.choice(["0x1", "0x2", "0x3", "0x53", t_int(rng, 16)])}
    if rng.random() < 0.7:
        tx["value"] = t_int(rng, 100)
    if rng.random() < 0.5:
        tx["nonce"] = t_int(rng, 32)
    kind = rng.choice(["transfer", "call", "call", "message", "deposit"])
    if kind == "call":
        tx["dataType"] = "call"
        tx["data"] = {"method": rng.choice(["transfer", "setText", "a.b", "m"])}
        if rng.random() < 0.8:
            p = data_value(rng, 1)
            tx["data"]["params"] = p if isinstance(p, dict) else {"v": p}
    elif kind == "message":
        tx["dataType"] = "message"
        tx["data"] = "0x" + rng.choice(TEXT).encode().hex()
    elif kind == "deposit":
        tx["dataType"] = "deposit"
        tx["data"] = {"action": rng.choice(["add", "withdraw"])}
        if tx["data"]["action"] == "withdraw" and rng.random() < 0.5:
            tx["data"]["amount"] = t_int(rng)
    items = list(tx.items())
    rng.shuffle(items)
    return dict(items)


def tx_rounds(f, rng, n):
    for _ in range(n):
        wallet = KeyWallet.create()
        tx = random_tx(rng, wallet.get_address())
        got = f.ask({"op": "tx", "txText": json.dumps(tx, ensure_ascii=rng.random() < 0.5),
                     "secret": wallet.get_private_key()})
        if not got.get("ok"):
            fail(f"valid transaction refused: {got} {tx}")
            continue
        expected = serializer.serialize(tx)
        check("tx-serialize", got["serialized"].encode() == expected, f"serialization of {tx}")
        check("tx-hash", got["hash"] == serializer.generate_message(tx), "hash")
        sig = base64.b64decode(got["signature"])
        msg_hash = bytes.fromhex(got["hash"])
        pub = coincurve.PublicKey.from_signature_and_message(sig, msg_hash, hasher=None)
        check("tx-signature", public_key_to_address(pub.format(compressed=False)) == tx["from"], "recovers to from")
        check("tx-signature", sig == wallet.sign(msg_hash), "= iconsdk's signature")
        check("tx-signed", serializer.generate_message(got["signed"]) == got["hash"], "signed form hashes the same")


MUTATIONS = [
    ("unknownField", lambda t: t.update(memo="x")),
    ("signaturePresent", lambda t: t.update(signature="AA==")),
    ("missingField", lambda t: t.pop("nid")),
    ("missingField", lambda t: t.pop("stepLimit")),
    ("unsupportedVersion", lambda t: t.update(version="0x2")),
    ("nonCanonicalInteger", lambda t: t.update(nid="0x01")),
    ("nonCanonicalInteger", lambda t: t.update(stepLimit="0XA")),
    ("nonCanonicalInteger", lambda t: t.update(timestamp="0xA")),
    ("nonCanonicalInteger", lambda t: t.update(value="12")),
    ("numberNotHexString", lambda t: t.update(value=10**20)),
    ("wrongType", lambda t: t.update(nonce=True)),
    ("invalidAddress", lambda t: t.update(to=t["to"][:2] + t["to"][2:].upper() if any(c in "abcdef" for c in t["to"][2:]) else "HX" + t["to"][2:])),
    ("invalidAddress", lambda t: t.update(to=t["to"][:-1])),
    ("contractAsSender", lambda t: t.update({"from": "cx" + t["from"][2:]})),
    ("unsupportedDataType", lambda t: t.update(dataType="deploy", data={"contentType": "application/zip", "content": "0x00"})),
    ("numberInData", lambda t: t.update(dataType="call", data={"method": "m", "params": {"n": 1}})),
    ("booleanInData", lambda t: t.update(dataType="call", data={"method": "m", "params": {"b": [False]}})),
    ("nonASCIIKey", lambda t: t.update(dataType="call", data={"method": "m", "params": {"caf\u00e9": "x"}})),
    ("specialCharacterInKey", lambda t: t.update(dataType="call", data={"method": "m", "params": {"a.b": "x"}})),
    ("dataWithoutDataType", lambda t: (t.pop("dataType", None), t.update(data="0x00"))),
]


def mutation_rounds(f, rng, n):
    for _ in range(n):
        wallet = KeyWallet.create()
        tx = random_tx(rng, wallet.get_address())
        code, mutate = rng.choice(MUTATIONS)
        mutate(tx)
        got = f.ask({"op": "tx", "txText": json.dumps(tx)})
        check("tx-refusal", got.get("ok") is False and got.get("code") == code, f"{code}: got {got}")
    dup = '{"version":"0x3","version":"0x3"}'
    got = f.ask({"op": "tx", "txText": dup})
    check("tx-refusal", got.get("code") == "duplicateKey", f"duplicate key: {got}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("filter")
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--seed", type=int, default=20261125)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    f = Filter(args.filter)
    bip32_rounds(f, rng, args.rounds)
    mnemonic_rounds(f, rng, args.rounds // 2)
    path_rounds(f, rng)
    key_rounds(f, rng, args.rounds)
    tx_rounds(f, rng, args.rounds * 2)
    mutation_rounds(f, rng, args.rounds)
    total = sum(counts.values())
    print("bip32/icon interop:", ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    print(f"{total - failures} passed, {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
