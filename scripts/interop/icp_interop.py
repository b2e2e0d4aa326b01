#!/usr/bin/env python3
"""Interop of Sigil's Internet Computer codec (ICPCodec, SigningKeys.IcpKeyPair) with independent
implementations from PyPI, through the ICPInterop JSON-lines filter.

- Principals: icp-py-core's icp_principal (text, self-authenticating, account identifiers) on
  random byte strings of 0..29 bytes; one-character mutations of valid texts are refused by Sigil
  exactly when they are not canonical text of some principal (checked with zlib.crc32 + base64).
- Request ids: icp-py-core's icp_agent.to_request_id on random seeded maps (blobs, texts, nats,
  nested arrays and maps), sent to Sigil as cbor2-encoded CBOR (so Sigil's CBOR decoder reads
  cbor2's output too).
- Envelopes: Sigil signs random calls, queries and read_states (secp256k1 and Ed25519); cbor2
  decodes each envelope, icp-py-core recomputes the request id from the content, the DER key's
  self-authenticating principal must be the sender, and coincurve (secp256k1, low-S) or PyNaCl
  (Ed25519) verifies sender_sig over b"\\x0aic-request" + id. icp-py-core-signed envelopes
  (python-ecdsa) verify in Sigil; tampered ones do not.
- keysmith derivation m/44'/223'/0'/0/n: checked against V-ICP-7 with icp-py-core's identities.
- Ed25519 identities from mnemonics (SLIP-0010 at m/44'/223'/0'/0'/n', Internet Identity's path):
  seeded random mnemonics, derived independently by bip-utils (BIP39 seed, Bip32Slip10Ed25519),
  the public key by PyNaCl, principal and account id by icp-py-core.
- PEM files both ways: Sigil's SEC1/PKCS#8 files load in icp-py-core (python-ecdsa) and
  icp-py-core's PKCS#8 files load in Sigil, same secret and principal.
- Candid: random values of random types encoded by icp-py-core's icp_candid.encode decode in Sigil
  to the same values; known ledger calls render.

Usage: icp_interop.py PATH-TO-ICPInterop [--rounds N] [--seed S]
All keys are random throwaway keys. Exits non-zero on any disagreement.
"""
import argparse
import base64
import hashlib
import random
import sys
import zlib

import cbor2
import coincurve
from bip_utils import Bip32Slip10Ed25519, Bip39MnemonicEncoder, Bip39SeedGenerator
import nacl.signing
from icp_agent.agent import to_request_id
from icp_candid.candid import Types, encode
from icp_identity import Identity
from icp_principal.principal import AccountIdentifier, Principal

from interop_filter import Filter, count, fail, tally  # noqa: E402


def principal_text(b):
    crc = zlib.crc32(b).to_bytes(4, "big")
    s = base64.b32encode(crc + b).decode().lower().rstrip("=")
    return "-".join(s[i:i + 5] for i in range(0, len(s), 5))


def check_principals(f, rng, rounds):
    for _ in range(rounds):
        raw = bytes(rng.randrange(256) for _ in range(rng.randrange(30)))
        want = Principal(raw).to_str()
        if want != principal_text(raw):
            fail(f"icp-py-core and zlib disagree on {raw.hex()}")
        r = f.ask(op="principalFromHex", hex=raw.hex())
        if not r["ok"] or r["text"] != want:
            fail(f"principal text of {raw.hex()}: {r} != {want}")
        want_acc = AccountIdentifier.new(Principal(raw)).to_str()
        want_acc = want_acc[2:] if want_acc.startswith("0x") else want_acc
        if r.get("accountId") != want_acc:
            fail(f"account id of {raw.hex()}: {r.get('accountId')} != {want_acc}")
        back = f.ask(op="principalFromText", text=want.upper() if rng.random() < 0.2 else want)
        if not back["ok"] or back["hex"] != raw.hex():
            fail(f"principal from text {want}: {back}")
        count("principal")
        # One-character mutation: Sigil accepts iff the result is canonical text of some principal.
        chars = list(want)
        i = rng.randrange(len(chars))
        chars[i] = rng.choice("abcdefghijklmnopqrstuvwxyz234567-01")
        mutated = "".join(chars)
        r = f.ask(op="principalFromText", text=mutated)
        canonical = False
        try:
            decoded = Principal.from_str(mutated)
            canonical = principal_text(decoded.bytes) == mutated and len(decoded.bytes) <= 29
        except Exception:
            canonical = False
        if r["ok"] != canonical:
            fail(f"mutated principal {mutated!r}: sigil ok={r['ok']} reference canonical={canonical}")
        count("principal-mutation")
        # Subaccounts: ICP account id with a random subaccount, ICRC-1 text round trip.
        if len(raw) > 0:
            sub = bytes(rng.randrange(256) if rng.random() < 0.5 else 0 for _ in range(32))
            r = f.ask(op="account", principal=want, subaccount=sub.hex())
            h = hashlib.sha224(b"\x0aaccount-id" + raw + sub).digest()
            acc = (zlib.crc32(h).to_bytes(4, "big") + h).hex()
            if not r["ok"] or r["accountId"] != acc or not r["roundTrip"]:
                fail(f"account {want}/{sub.hex()}: {r} (want {acc})")
            count("account")


def random_value(rng, depth=0, in_array=False):
    # No maps inside arrays: icp-py-core hashes those as CBOR (its fallback) where the specification
    # says hash_of_map; requests never contain them (sender_delegation is outside the content).
    kinds = ["blob", "text", "nat"] + (["array"] if depth < 3 else []) + (["map"] if depth < 3 and not in_array else [])
    kind = rng.choice(kinds)
    if kind == "blob":
        return bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
    if kind == "text":
        return "".join(rng.choice("abcXYZ_é→ 0") for _ in range(rng.randrange(12)))
    if kind == "nat":
        return rng.choice([0, 1, 127, 128, 2**63, 2**64 - 1, rng.randrange(2**64)])
    if kind == "array":
        return [random_value(rng, depth + 1, True) for _ in range(rng.randrange(4))]
    return {random_key(rng): random_value(rng, depth + 1) for _ in range(rng.randrange(1, 4))}


def random_key(rng):
    return rng.choice(["request_type", "sender", "canister_id", "method_name", "arg", "nonce",
                       "ingress_expiry", "paths", "a", "b", ""]) + ("" if rng.random() < 0.7 else str(rng.randrange(9)))


def check_request_ids(f, rng, rounds):
    for _ in range(rounds):
        content = {random_key(rng): random_value(rng) for _ in range(rng.randrange(1, 9))}
        want = to_request_id(content).hex()
        r = f.ask(op="requestId", cbor=cbor2.dumps(cbor2.CBORTag(55799, content)).hex())
        if not r["ok"] or r["requestId"] != want:
            fail(f"request id of {content!r}: {r} != {want}")
        count("request-id")


def thaw(v):
    """cbor2 may return immutable maps (frozendict) and tuples; icp-py-core wants dict and list."""
    if isinstance(v, dict) or type(v).__name__ == "frozendict":
        return {k: thaw(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [thaw(x) for x in v]
    return v


def verify_envelope(env_hex, algorithm, want_sender):
    raw = bytes.fromhex(env_hex)
    if not raw.startswith(b"\xd9\xd9\xf7"):
        return "no self-describe tag"
    env = cbor2.loads(raw)  # cbor2 drops the self-describe tag itself
    if isinstance(env, cbor2.CBORTag):
        env = env.value
    env = thaw(env)
    if set(env) != {"content", "sender_pubkey", "sender_sig"}:
        return f"envelope keys {sorted(env)}"
    content, der, sig = env["content"], env["sender_pubkey"], env["sender_sig"]
    rid = to_request_id(content)
    if Principal.self_authenticating(der).to_str() != want_sender or Principal(content["sender"]).to_str() != want_sender:
        return "sender is not the key's principal"
    msg = b"\x0aic-request" + rid
    if len(sig) != 64:
        return "signature not 64 bytes"
    if algorithm == "secp256k1":
        if not der.startswith(bytes.fromhex("3056301006072a8648ce3d020106052b8104000a034200")):
            return "secp256k1 DER prefix"
        s = int.from_bytes(sig[32:], "big")
        n = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
        if s > n // 2:
            return "high-S"
        pub = coincurve.PublicKey(der[23:])
        if not pub.verify(coincurve.ecdsa.cdata_to_der(coincurve.ecdsa.deserialize_compact(sig)), msg,
                          hasher=lambda m: hashlib.sha256(m).digest()):
            return "secp256k1 signature does not verify"
    else:
        if not der.startswith(bytes.fromhex("302a300506032b6570032100")):
            return "ed25519 DER prefix"
        try:
            nacl.signing.VerifyKey(der[12:]).verify(msg, sig)
        except Exception:
            return "ed25519 signature does not verify"
    return None, rid.hex()


def check_envelopes(f, rng, rounds):
    now = 1_700_000_000_000_000_000
    for i in range(rounds):
        algorithm = "secp256k1" if i % 3 else "ed25519"
        secret = bytes(rng.randrange(256) for _ in range(32))
        kind = rng.choice(["call", "call", "query", "read_state"])
        req = dict(op="sign", algorithm=algorithm, secret=secret.hex(), now=str(now), type=kind)
        if rng.random() < 0.5:
            req["expiry"] = str(now + rng.randrange(1, 5 * 60 * 10**9 + 1))
        if rng.random() < 0.5:
            req["nonce"] = bytes(rng.randrange(256) for _ in range(rng.randrange(33))).hex()
        if kind == "read_state":
            req["paths"] = [[bytes(rng.randrange(256) for _ in range(rng.randrange(33))).hex()
                             for _ in range(rng.randrange(3))] for _ in range(rng.randrange(3))]
        else:
            req["canister"] = Principal(bytes(rng.randrange(256) for _ in range(10))).to_str()
            req["method"] = rng.choice(["icrc1_transfer", "hello", "greet", "x" * rng.randrange(1, 40)])
            req["arg"] = (b"DIDL\x00\x00" + bytes(rng.randrange(256) for _ in range(rng.randrange(64)))).hex()
        try:
            secp_ok = algorithm != "secp256k1" or 0 < int.from_bytes(secret, "big") < 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
        except Exception:
            secp_ok = False
        r = f.ask(**req)
        if not r["ok"]:
            if secp_ok:
                fail(f"sign refused: {r}")
            continue
        result = verify_envelope(r["envelope"], algorithm, r["sender"])
        if isinstance(result, str):
            fail(f"envelope {i} ({algorithm}, {kind}): {result}")
            continue
        if result[1] != r["requestId"]:
            fail(f"envelope {i}: request id {r['requestId']} != icp-py-core {result[1]}")
        # The DER key's principal in icp-py-core.
        ident = Identity(privkey=secret.hex(), type=algorithm)
        if ident.sender().to_str() != r["sender"] or ident.der_pubkey.hex() != r["der"]:
            fail(f"identity of {algorithm} key differs: {ident.sender().to_str()} vs {r['sender']}")
        count(f"envelope-{algorithm}")
        # Expiry beyond five minutes is refused.
        bad = dict(req, expiry=str(now + 5 * 60 * 10**9 + 1 + rng.randrange(10**9)))
        r = f.ask(**bad)
        if r["ok"] or r["code"] != "expiryOutOfRange":
            fail(f"expiry beyond 5 minutes accepted: {r}")
        count("expiry-refusal")

    # Envelopes signed by icp-py-core (python-ecdsa, not libsecp256k1) verify in Sigil; a flipped
    # bit in the signature or content does not.
    for i in range(max(10, rounds // 5)):
        algorithm = "secp256k1" if i % 2 else "ed25519"
        ident = Identity(privkey=bytes(rng.randrange(1, 256) for _ in range(32)).hex(), type=algorithm)
        content = {"request_type": "call", "sender": ident.sender().bytes, "ingress_expiry": now,
                   "canister_id": bytes(10), "method_name": "hello", "arg": b"DIDL\x00\x00",
                   "nonce": bytes(rng.randrange(256) for _ in range(8))}
        rid = to_request_id(content)
        der, sig = ident.sign(b"\x0aic-request" + rid)
        env = {"content": content, "sender_pubkey": der, "sender_sig": sig}
        r = f.ask(op="verifyEnvelope", envelope=cbor2.dumps(cbor2.CBORTag(55799, env)).hex())
        if not r["ok"] or r["requestId"] != rid.hex() or r["sender"] != ident.sender().to_str():
            fail(f"icp-py-core envelope not accepted: {r}")
        bad_sig = bytearray(sig)
        bad_sig[rng.randrange(64)] ^= 1 << rng.randrange(8)
        r = f.ask(op="verifyEnvelope", envelope=cbor2.dumps(dict(env, sender_sig=bytes(bad_sig))).hex())
        if r["ok"]:
            fail("tampered signature accepted")
        r = f.ask(op="verifyEnvelope", envelope=cbor2.dumps(dict(env, content=dict(content, method_name="hellO"))).hex())
        if r["ok"]:
            fail("tampered content accepted")
        count("foreign-envelope")


def check_keysmith(f):
    phrase = "verb bottom twelve symptom plastic believe beach cargo inherit viable dice loop"
    want = {0: "t2kpu-6xt6l-tyb3d-rll2p-irv5c-no5nd-h6spj-jsetq-bmqdz-iap77-pqe",
            1: "ncpzz-qv6a2-ult3n-4mmvz-gdrhx-ileg4-upz7f-7zfqi-affpy-zlkid-hae"}
    for i, principal in want.items():
        r = f.ask(op="keysmith", phrase=phrase, index=i)
        ident = Identity(privkey=r.get("secret", "00" * 32), type="secp256k1")
        if not r["ok"] or r["principal"] != principal or ident.sender().to_str() != principal:
            fail(f"keysmith key {i}: {r}")
        count("keysmith")


def check_ed25519_mnemonics(f, rng, rounds):
    """Sigil's Ed25519 mnemonic identities against bip-utils' SLIP-0010 (Bip32Slip10Ed25519) over its
    own BIP39 seed, PyNaCl's public key and icp-py-core's principal and account id. Mnemonics come
    from seeded random entropy (12 to 24 words), some with a passphrase, indexes 0 to 2^31 - 1."""
    for i in range(rounds):
        entropy = bytes(rng.randrange(256) for _ in range(rng.choice([16, 20, 24, 28, 32])))
        phrase = str(Bip39MnemonicEncoder().Encode(entropy))
        passphrase = "" if i % 3 else "pass " + str(i)
        index = rng.choice([0, 0, 1, 2, rng.randrange(2**31)])
        path = f"m/44'/223'/0'/0'/{index}'"
        seed = Bip39SeedGenerator(phrase).Generate(passphrase)
        secret = Bip32Slip10Ed25519.FromSeed(seed).DerivePath(path).PrivateKey().Raw().ToBytes()
        public = bytes(nacl.signing.SigningKey(secret).verify_key)
        ident = Identity(privkey=secret.hex(), type="ed25519")
        principal = ident.sender()
        account = AccountIdentifier.new(principal).to_str().removeprefix("0x")
        r = f.ask(op="keysmith", phrase=phrase, passphrase=passphrase, index=index, algorithm="ed25519")
        if not r["ok"] or r["path"] != path or r["secret"] != secret.hex() or r["publicKey"] != public.hex():
            fail(f"ed25519 mnemonic key {i} at {path}: Sigil {r.get('publicKey')}, bip-utils {public.hex()}")
        elif r["principal"] != principal.to_str() or r["accountId"] != account:
            fail(f"ed25519 mnemonic principal {i}: Sigil {r['principal']}, icp-py-core {principal.to_str()}")
        count("ed25519-mnemonic")


def check_pem(f, rng, rounds):
    """PEM files both ways: Sigil's (SEC1 / PKCS#8) load in icp-py-core (python-ecdsa), and
    icp-py-core's PKCS#8 files load in Sigil, with the same secret and principal."""
    for i in range(rounds):
        algorithm = "secp256k1" if i % 2 else "ed25519"
        secret = bytes(rng.randrange(1, 256) for _ in range(32))
        r = f.ask(op="pemWrite", algorithm=algorithm, secret=secret.hex())
        ident = Identity.from_pem(r["pem"])
        if not r["ok"] or ident.key_type != algorithm or ident.privkey != secret.hex():
            fail(f"Sigil PEM not read back by icp-py-core: {algorithm}")
        theirs = Identity(privkey=secret.hex(), type=algorithm).to_pem().decode()
        r = f.ask(op="pemRead", pem=theirs)
        if not r["ok"] or r["secret"] != secret.hex() or r["principal"] != ident.sender().to_str():
            fail(f"icp-py-core PEM not read by Sigil: {r}")
        count(f"pem-{algorithm}")


# ---- Candid ----

FIXED = {"nat8": 8, "nat16": 16, "nat32": 32, "nat64": 64}
SIGNED = {"int8": 8, "int16": 16, "int32": 32, "int64": 64}
NAMES = ["amount", "to", "owner", "fee", "memo", "a", "b", "c", "created_at_time", "subaccount", "x1", "zz"]


def random_type(rng, depth=0):
    prims = ["null", "bool", "nat", "int", "text", "principal", "blob"] + list(FIXED) + list(SIGNED)
    kind = rng.choice(prims + (["opt", "vec", "record", "variant"] * 2 if depth < 4 else []))
    if kind in ("opt", "vec"):
        return (kind, random_type(rng, depth + 1))
    if kind in ("record", "variant"):
        names = rng.sample(NAMES, rng.randrange(1, 5))
        return (kind, [(n, random_type(rng, depth + 1)) for n in names])
    return (kind,)


def candid_type(t):
    k = t[0]
    simple = {"null": Types.Null, "bool": Types.Bool, "nat": Types.Nat, "int": Types.Int, "text": Types.Text,
              "principal": Types.Principal, "nat8": Types.Nat8, "nat16": Types.Nat16, "nat32": Types.Nat32,
              "nat64": Types.Nat64, "int8": Types.Int8, "int16": Types.Int16, "int32": Types.Int32,
              "int64": Types.Int64}
    if k in simple:
        return simple[k]
    if k == "blob":
        return Types.Vec(Types.Nat8)
    if k == "opt":
        return Types.Opt(candid_type(t[1]))
    if k == "vec":
        return Types.Vec(candid_type(t[1]))
    fields = {n: candid_type(ft) for n, ft in t[1]}
    return Types.Record(fields) if k == "record" else Types.Variant(fields)


def idl_hash(name):
    h = 0
    for b in name.encode():
        h = (h * 223 + b) % 2**32
    return h


def random_candid(rng, t):
    """(python value for icp_candid.encode, expected JSON from ICPInterop)."""
    k = t[0]
    if k == "null":
        return None, ["null"]
    if k == "bool":
        v = rng.random() < 0.5
        return v, ["bool", v]
    if k == "nat":
        v = rng.choice([0, 1, 2**64, 10**30, rng.randrange(2**200)])
        return v, ["nat", str(v)]
    if k == "int":
        v = rng.choice([0, -1, 1, -(2**70), 2**70, rng.randrange(-2**100, 2**100)])
        return v, ["int", str(v)]
    if k in FIXED:
        v = rng.randrange(2**FIXED[k])
        return v, [k, str(v)]
    if k in SIGNED:
        b = SIGNED[k]
        v = rng.randrange(-2**(b - 1), 2**(b - 1))
        return v, [k, str(v)]
    if k == "text":
        v = "".join(rng.choice("ab é→\u0000\"") for _ in range(rng.randrange(10)))
        return v, ["text", v]
    if k == "principal":
        raw = bytes(rng.randrange(256) for _ in range(rng.randrange(30)))
        return Principal(raw), ["principal", Principal(raw).to_str()]
    if k == "blob" or t == ("vec", ("nat8",)):
        raw = bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
        return raw, ["blob", raw.hex()]
    if k == "opt":
        if rng.random() < 0.4:
            return [], ["opt"]
        v, j = random_candid(rng, t[1])
        return [v], ["opt", j]
    if k == "vec":
        items = [random_candid(rng, t[1]) for _ in range(rng.randrange(4))]
        return [v for v, _ in items], ["vec", [j for _, j in items]]
    if k == "record":
        vals = {n: random_candid(rng, ft) for n, ft in t[1]}
        return ({n: v for n, (v, _) in vals.items()},
                ["record", [[str(idl_hash(n)), vals[n][1]] for n in sorted(vals, key=idl_hash)]])
    n, ft = rng.choice(t[1])
    v, j = random_candid(rng, ft)
    return {n: v}, ["variant", str(idl_hash(n)), j]


def check_candid(f, rng, rounds):
    for i in range(rounds):
        types = [random_type(rng) for _ in range(rng.randrange(1, 4))]
        vals = [random_candid(rng, t) for t in types]
        try:
            data = encode([{"type": candid_type(t), "value": v} for t, (v, _) in zip(types, vals)])
        except Exception as e:  # the encoder's own limits; not Sigil's concern
            count("candid-encoder-skip")
            continue
        r = f.ask(op="candid", bytes=data.hex())
        want = [j for _, j in vals]
        if not r["ok"] or r["values"] != want:
            fail(f"candid {i}: types {types}\n  sigil {r}\n  want  {want}")
        count("candid")
        # Truncations never crash and are refused.
        cut = rng.randrange(len(data))
        r = f.ask(op="candid", bytes=data[:cut].hex())
        if r["ok"]:
            # Decoding is deterministic and must consume every byte, so a strict prefix cannot decode.
            fail(f"candid {i}: a {cut}-byte prefix of a {len(data)}-byte message decoded")
        count("candid-truncation")


def check_rendering(f):
    Account = Types.Record({"owner": Types.Principal, "subaccount": Types.Opt(Types.Vec(Types.Nat8))})
    TransferArg = Types.Record({"from_subaccount": Types.Opt(Types.Vec(Types.Nat8)), "to": Account, "amount": Types.Nat,
                                "fee": Types.Opt(Types.Nat), "memo": Types.Opt(Types.Vec(Types.Nat8)),
                                "created_at_time": Types.Opt(Types.Nat64)})
    to = Principal(bytes(range(29)))
    for amount, shown in [(1, "0.00000001 ICP"), (10**8, "1 ICP"), (123456789, "1.23456789 ICP"), (10**30, "10000000000000000000000 ICP")]:
        data = encode([{"type": TransferArg, "value": {"from_subaccount": [], "to": {"owner": to, "subaccount": []},
                                                       "amount": amount, "fee": [], "memo": [], "created_at_time": []}}])
        r = f.ask(op="candid", bytes=data.hex(), canister="ryjl3-tyaaa-aaaaa-aaaba-cai", method="icrc1_transfer")
        if not r["ok"] or not r["recognised"] or r["lines"].get("Amount") != shown or r["lines"].get("To") != to.to_str():
            fail(f"icrc1_transfer rendering for {amount}: {r}")
        count("render")
    # A record with one field more than the published type is not recognised.
    Bigger = Types.Record({"from_subaccount": Types.Opt(Types.Vec(Types.Nat8)), "to": Account, "amount": Types.Nat,
                           "fee": Types.Opt(Types.Nat), "memo": Types.Opt(Types.Vec(Types.Nat8)),
                           "created_at_time": Types.Opt(Types.Nat64), "extra": Types.Nat})
    data = encode([{"type": Bigger, "value": {"from_subaccount": [], "to": {"owner": to, "subaccount": []}, "amount": 1,
                                              "fee": [], "memo": [], "created_at_time": [], "extra": 5}}])
    r = f.ask(op="candid", bytes=data.hex(), canister="ryjl3-tyaaa-aaaaa-aaaba-cai", method="icrc1_transfer")
    if not r["ok"] or r["recognised"]:
        fail(f"extra field recognised: {r}")
    count("render")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("filter")
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--seed", type=int, default=20261125)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    f = Filter(a.filter)
    check_principals(f, rng, a.rounds)
    check_request_ids(f, rng, a.rounds)
    check_envelopes(f, rng, a.rounds)
    check_keysmith(f)
    check_ed25519_mnemonics(f, random.Random(a.seed + 1), max(50, a.rounds // 2))
    check_pem(f, rng, max(20, a.rounds // 5))
    check_candid(f, rng, a.rounds)
    check_rendering(f)
    print("icp interop:", ", ".join(f"{k} {v}" for k, v in sorted(tally.counts.items())), file=sys.stderr)
    if tally.failures:
        sys.exit(f"{tally.failures} disagreements")


if __name__ == "__main__":
    main()
