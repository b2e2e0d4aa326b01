#!/usr/bin/env python3
"""Interop check of `sigil key` against independent implementations from PyPI.

- sr25519: schnorrkel through py-sr25519-bindings; addresses via substrate-interface.
- ed25519: ed25519-zebra through py-ed25519-zebra-bindings (the verifier Substrate runtimes use).
- ecdsa:   libsecp256k1 through coincurve, with BLAKE2b-256 prehash (sp-core ecdsa).
- mnemonics: substrate-bip39 through py-bip39-bindings.

Usage: keys_interop.py PATH-TO-SIGIL [--rounds N] [--seed S]
Exits non-zero on the first disagreement, printing what differed (never a secret of a real user:
all keys here are random throwaway keys).
"""
import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import bip39
import coincurve
import ed25519_zebra
import sr25519
from substrateinterface import Keypair, KeypairType
from substrateinterface.key import extract_derive_path
from substrateinterface.utils.ss58 import ss58_encode

failures = 0
checks = 0
# sigil invocations at a time: a few more than the cores, as each also waits on its process start.
WORKERS = 2 * (os.cpu_count() or 2)


def fail(what):
    global failures
    failures += 1
    print("FAIL:", what, file=sys.stderr)
    if failures > 10:
        sys.exit(1)


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        fail(what)


def blake2_256(b):
    return hashlib.blake2b(b, digest_size=32).digest()


def run(sigil, *args, stdin=None, expect_rc=None):
    p = subprocess.run([sigil, "key", *args], input=stdin, capture_output=True, text=True, timeout=60)
    if expect_rc is not None and p.returncode != expect_rc:
        fail(f"sigil key {args[0]} exit {p.returncode} (expected {expect_rc}): {p.stdout.strip()} {p.stderr.strip()}")
    return p


def sign(sigil, uri, scheme, msg):
    # The URI goes through stdin ('-') as a user would pass secrets.
    p = run(sigil, "sign", "-", "--scheme", scheme, "--hex", "0x" + msg.hex(), stdin=uri + "\n", expect_rc=0)
    return bytes.fromhex(p.stdout.strip()[2:])


def inspect(sigil, uri, scheme, network=42):
    p = run(sigil, "inspect", "-", "--scheme", scheme, "--network", str(network), "--json", stdin=uri + "\n",
            expect_rc=0)
    return json.loads(p.stdout)


def verify(sigil, scheme, sig, signer, msg):
    p = run(sigil, "verify", "0x" + sig.hex(), signer, "--scheme", scheme, "--hex", "0x" + msg.hex())
    return p.returncode, p.stdout.strip()


def ecdsa_sign(secret, msg):
    return coincurve.PrivateKey(secret).sign_recoverable(msg, hasher=blake2_256)


def ecdsa_verify(sig, msg, pub33):
    if len(sig) != 65 or sig[64] > 1:
        return False
    try:
        rec = coincurve.PublicKey.from_signature_and_message(sig, msg, hasher=blake2_256)
    except Exception:
        return False
    # low-S: s <= n/2
    n = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
    if int.from_bytes(sig[32:64], "big") > n // 2:
        return False
    return rec.format(compressed=True) == pub33


def hdkd(label, seed, path):
    """sp-core hard derivation for ed25519/ecdsa; path junctions via substrate-interface."""
    for j in extract_derive_path(path) if path else []:
        assert j.is_hard
        enc = bytes([len(label) << 2]) + label + seed + j.chain_code
        seed = blake2_256(enc)
    return seed


def random_path(rng, soft_ok):
    parts = []
    for _ in range(rng.randint(0, 4)):
        hard = (not soft_ok) or rng.random() < 0.5
        kind = rng.random()
        if kind < 0.3:
            code = str(rng.randint(0, 2**40))
        elif kind < 0.5:
            code = "".join(rng.choice("abcdefghijklmnopqrstuvwxyzABCDEF_-.") for _ in range(rng.randint(33, 60)))
        else:
            code = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(1, 12)))
            if code.isdigit():
                code += "x"
        parts.append(("//" if hard else "/") + code)
    return "".join(parts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sigil")
    ap.add_argument("--rounds", type=int, default=100, help="signatures per scheme")
    ap.add_argument("--seed", type=int, default=int.from_bytes(os.urandom(4), "little"))
    a = ap.parse_args()
    rng = random.Random(a.seed)
    print(f"keys interop: rounds={a.rounds} seed={a.seed} sigil={a.sigil}", file=sys.stderr)
    start = time.time()

    # Every input is drawn first, in the seed's order; the sigil invocations then run WORKERS at a
    # time (each is a process start: most of this step's time) and are checked in the same order.
    pool = ThreadPoolExecutor(max_workers=WORKERS)

    # 1. sigil signs random messages; the libraries verify (and reject a wrong message).
    signed = []
    for i in range(a.rounds):
        seed = os.urandom(32)
        msg = os.urandom(rng.choice([0, 1, 16, 32, 100, 256, 257, 1000]))
        signed.append((seed, msg, [pool.submit(sign, a.sigil, "0x" + seed.hex(), scheme, msg)
                                   for scheme in ("sr25519", "ed25519", "ecdsa")]))
    for i, (seed, msg, (sr, ed, ec)) in enumerate(signed):
        pub, secret = sr25519.pair_from_seed(seed)
        sig = sr.result()
        check(sr25519.verify(sig, msg, pub), f"schnorrkel rejects sigil sr25519 signature (round {i})")
        check(not sr25519.verify(sig, msg + b"\0", pub), "schnorrkel accepts sr25519 signature on another message")

        _, epub = ed25519_zebra.ed_from_seed(seed)
        sig = ed.result()
        check(ed25519_zebra.ed_verify(sig, msg, epub), f"ed25519-zebra rejects sigil ed25519 signature (round {i})")
        check(sig == ed25519_zebra.ed_sign(seed, msg), "ed25519 signature is not the deterministic RFC 8032 one")

        kpub = coincurve.PrivateKey(seed).public_key.format(compressed=True)
        sig = ec.result()
        check(ecdsa_verify(sig, msg, kpub), f"libsecp256k1 rejects sigil ecdsa signature (round {i})")
        check(sig == ecdsa_sign(seed, msg), "ecdsa signature differs from libsecp256k1 RFC 6979 over blake2b-256")
    print(f"  sign: {3 * a.rounds} sigil signatures verified ({time.time() - start:.1f}s)", file=sys.stderr)

    # 2. sigil verifies library signatures and rejects corrupted ones.
    t = time.time()
    n_verify = max(a.rounds // 5, 10)
    verified = []
    for i in range(n_verify):
        seed = os.urandom(32)
        msg = os.urandom(rng.choice([0, 5, 64, 300]))
        cases = []
        pub, secret = sr25519.pair_from_seed(seed)
        cases.append(("sr25519", sr25519.sign((pub, secret), msg), "0x" + pub.hex()))
        cases.append(("sr25519", sr25519.sign((pub, secret), msg), ss58_encode(pub, 2)))
        _, epub = ed25519_zebra.ed_from_seed(seed)
        cases.append(("ed25519", ed25519_zebra.ed_sign(seed, msg), ss58_encode(epub, 42)))
        kpub = coincurve.PrivateKey(seed).public_key.format(compressed=True)
        esig = ecdsa_sign(seed, msg)
        cases.append(("ecdsa", esig, "0x" + kpub.hex()))
        cases.append(("ecdsa", esig, ss58_encode(blake2_256(kpub), 0)))  # by account id
        for scheme, sig, signer in cases:
            bad = bytearray(sig)
            pos = rng.randrange(64)
            bad[pos] ^= 1 << rng.randrange(8)
            verified.append((scheme, pos, pool.submit(verify, a.sigil, scheme, sig, signer, msg),
                             pool.submit(verify, a.sigil, scheme, bytes(bad), signer, msg),
                             pool.submit(verify, a.sigil, scheme, sig, signer, msg + b"x")))
    for scheme, pos, valid, corrupted, other in verified:
        rc, out = valid.result()
        check(rc == 0, f"sigil rejects a valid {scheme} signature: {out}")
        rc, out = corrupted.result()
        check(rc == 1 and out.startswith("Signature invalid:") and "\n" not in out,
              f"sigil accepts a corrupted {scheme} signature (byte {pos}) or bad output: {out!r}")
        rc, out = other.result()
        check(rc == 1, f"sigil accepts a {scheme} signature for another message")
    print(f"  verify: {n_verify * 5} library signatures accepted, corruptions rejected ({time.time() - t:.1f}s)",
          file=sys.stderr)

    # 3. Addresses from random mnemonics and paths.
    t = time.time()
    n_addr = max(a.rounds // 3, 10)
    inspected = []
    for i in range(n_addr):
        words = rng.choice([12, 15, 18, 21, 24])
        phrase = bip39.bip39_generate(words)
        path = random_path(rng, soft_ok=True)
        network = rng.choice([0, 2, 42, 64, 255, 7391, 16383])
        # sr25519: substrate-interface (schnorrkel HDKD) does phrase + path.
        ref = Keypair.create_from_uri(phrase + path, ss58_format=network, crypto_type=KeypairType.SR25519)
        # sr25519 public soft derivation through `inspect --public`.
        soft = "/" + "".join(rng.choice("abcxyz") for _ in range(5))
        # With a password: substrate-bip39 mini secret, then schnorrkel.
        pw = "pw" + str(rng.randint(0, 10**6))
        # ed25519 and ecdsa: hard paths (sp-core HDKD) over the substrate-bip39 mini secret.
        hpath = random_path(rng, soft_ok=False)
        inspected.append((words, phrase, path, network, ref, soft, pw, hpath, [
            pool.submit(inspect, a.sigil, phrase + path, "sr25519", network),
            pool.submit(run, a.sigil, "inspect", ref.ss58_address + soft, "--public", "--json", "--network",
                        str(network), expect_rc=0),
            pool.submit(inspect, a.sigil, phrase + "///" + pw, "sr25519", network),
            pool.submit(inspect, a.sigil, phrase + hpath, "ed25519", network),
            pool.submit(inspect, a.sigil, phrase + hpath, "ecdsa", network)]))
    for words, phrase, path, network, ref, soft, pw, hpath, (sr, public, password, ed, ec) in inspected:
        out = sr.result()
        check(out["ss58Address"] == ref.ss58_address, f"sr25519 address differs for a {words}-word phrase{path}")
        check(out["publicKey"] == "0x" + ref.public_key.hex(), "sr25519 public key differs")
        if "/" not in path.replace("//", ""):  # hard-only: the seed is known and must expand to the key
            seed = bytes.fromhex(out["secretSeed"][2:])
            check(sr25519.pair_from_seed(seed)[0] == ref.public_key, "sr25519 secretSeed does not expand to the key")
        else:
            check("secretSeed" not in out, "secretSeed shown after a soft junction")
        expected = Keypair.create_from_uri(phrase + path + soft, ss58_format=network)
        check(json.loads(public.result().stdout)["ss58Address"] == expected.ss58_address,
              "sr25519 public soft derivation differs")

        mini = bytes(bip39.bip39_to_mini_secret(phrase, pw))
        check(password.result()["publicKey"] == "0x" + sr25519.pair_from_seed(mini)[0].hex(),
              "sr25519 ///password key differs")

        mini = bytes(bip39.bip39_to_mini_secret(phrase, ""))
        eseed = hdkd(b"Ed25519HDKD", mini, hpath)
        _, epub = ed25519_zebra.ed_from_seed(eseed)
        out = ed.result()
        check(out["ss58Address"] == ss58_encode(epub, network), f"ed25519 address differs for phrase{hpath}")
        if not hpath:
            ref = Keypair.create_from_uri(phrase, ss58_format=network, crypto_type=KeypairType.ED25519)
            check(out["ss58Address"] == ref.ss58_address, "ed25519 root address differs from substrate-interface")
        kseed = hdkd(b"Secp256k1HDKD", mini, hpath)
        kpub = coincurve.PrivateKey(kseed).public_key.format(compressed=True)
        out = ec.result()
        check(out["publicKey"] == "0x" + kpub.hex(), f"ecdsa public key differs for phrase{hpath}")
        check(out["ss58Address"] == ss58_encode(blake2_256(kpub), network), "ecdsa account address differs")
    print(f"  inspect: {n_addr} random mnemonics/paths agree ({time.time() - t:.1f}s)", file=sys.stderr)
    pool.shutdown()

    print(f"keys interop: {checks} checks, {failures} failures, {time.time() - start:.1f}s", file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
