#!/usr/bin/env python3
"""Interop check of `sigil accounts` with the polkadot-js keyring JSON v3 format, using code that
shares nothing with Sigil:

- an independent decoder/encoder written here from the format (docs/reference/crypto.md §7): hashlib.scrypt
  with the parameters read from the file, PyNaCl's XSalsa20-Poly1305 secretbox, the PKCS8 layout;
  key checks with py-sr25519-bindings (schnorrkel), PyNaCl (ed25519) and coincurve (libsecp256k1);
- substrate-interface's Keypair.create_from_encrypted_json / export_to_encrypted_json, a port of the
  polkadot-js algorithm.

Directions: files exported by `sigil accounts export` are decrypted here; files written here (N=2^15
and the current polkadot-js default N=2^17, single and batch-pkcs8) are imported by `sigil accounts
import`; wrong passwords, tampered and truncated files must fail and change nothing.

Usage: keystore_interop.py PATH-TO-SIGIL [--rounds N]
All keys are random throwaway keys.
"""
import argparse
import base64
import hashlib
import json
import os
import secrets
import subprocess
import sys
import tempfile

import coincurve
import nacl.secret
import nacl.signing
import sr25519
from substrateinterface import Keypair, KeypairType
from substrateinterface.utils.ss58 import ss58_encode

HDR = bytes.fromhex("3053020101300506032b657004220420")
DIV = bytes.fromhex("a123032100")
checks = 0


def check(condition, what):
    global checks
    checks += 1
    if not condition:
        print("FAIL:", what, file=sys.stderr)
        sys.exit(1)


# ---- independent implementation of the format -------------------------------------------------

def decrypt(file_json, password):
    """(plaintext, (N, p, r)) of a polkadot-js JSON v3 file."""
    data = base64.b64decode(file_json["encoded"])
    assert "scrypt" in file_json["encoding"]["type"]
    salt = data[0:32]
    n, p, r = (int.from_bytes(data[i:i + 4], "little") for i in (32, 36, 40))  # order N, p, r
    key = hashlib.scrypt(password.encode(), salt=salt, n=n, r=r, p=p, dklen=64, maxmem=512 * 1024 * 1024)[:32]
    nonce, box = data[44:68], data[68:]
    return nacl.secret.SecretBox(key).decrypt(box, nonce), (n, p, r)


def encrypt(plain, password, n):
    salt = secrets.token_bytes(32)
    key = hashlib.scrypt(password.encode(), salt=salt, n=n, r=8, p=1, dklen=64, maxmem=512 * 1024 * 1024)[:32]
    nonce = secrets.token_bytes(24)
    box = nacl.secret.SecretBox(key).encrypt(plain, nonce).ciphertext  # MAC ‖ ciphertext
    return base64.b64encode(salt + n.to_bytes(4, "little") + (1).to_bytes(4, "little") + (8).to_bytes(4, "little")
                            + nonce + box).decode()


def split_pkcs8(plain, scheme):
    check(plain[:16] == HDR, f"{scheme}: PKCS8 header")
    secret_len = 32 if scheme == "ecdsa" else 64
    pub_len = 33 if scheme == "ecdsa" else 32
    check(len(plain) == 16 + secret_len + 5 + pub_len, f"{scheme}: plaintext length {len(plain)}")
    check(plain[16 + secret_len:21 + secret_len] == DIV, f"{scheme}: PKCS8 divider")
    return plain[16:16 + secret_len], plain[21 + secret_len:]


def account_of(secret, public, scheme):
    """Derive the public key from the secret with an independent library; return the SS58 address."""
    if scheme == "sr25519":
        derived, _ = sr25519.pair_from_ed25519_secret_key(secret)
        check(derived == public, "sr25519: secret (ed25519 form) gives the embedded public key")
        account = public
    elif scheme == "ed25519":
        derived = nacl.signing.SigningKey(secret[:32]).verify_key.encode()
        check(derived == public and secret[32:] == public, "ed25519: seed ‖ public gives the embedded key")
        account = public
    else:
        derived = coincurve.PrivateKey(secret).public_key.format(compressed=True)
        check(derived == public, "ecdsa: secret gives the embedded compressed key")
        account = hashlib.blake2b(public, digest_size=32).digest()
    return ss58_encode("0x" + account.hex(), 42)


def pkcs8_file(secret, public, scheme, password, n, name):
    plain = HDR + secret + DIV + public
    address = "0x" + public.hex() if scheme == "ecdsa" else ss58_encode("0x" + public.hex(), 42)
    return {
        "encoded": encrypt(plain, password, n),
        "encoding": {"content": ["pkcs8", scheme], "type": ["scrypt", "xsalsa20-poly1305"], "version": "3"},
        "address": address,
        "meta": {"name": name, "whenCreated": 1718265838755, "genesisHash": ""},
    }


# ---- driving sigil ----------------------------------------------------------------------------

class Sigil:
    def __init__(self, binary, home):
        self.binary, self.home = binary, home
        self.pwfile = os.path.join(home, "pw")

    def run(self, *args, password=None, stdin=None, ok=True):
        cmd = [self.binary, "accounts", *args, "--data-dir", os.path.join(self.home, "data")]
        if password is not None:
            with open(self.pwfile, "w") as f:
                f.write(password + "\n")
            os.chmod(self.pwfile, 0o600)
            cmd += ["--password-file", self.pwfile]
        # A new session has no controlling terminal, so prompts cannot be answered (as in CI).
        p = subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=120, start_new_session=True)
        if ok and p.returncode != 0:
            print("FAIL:", " ".join(args[:1]), p.stderr, file=sys.stderr)
            sys.exit(1)
        return p

    def accounts(self):
        return {a["address"]: a for a in json.loads(self.run("list", "--json").stdout)}

    def snapshot(self):
        out = {}
        accounts = os.path.join(self.home, "data", "accounts")
        for name in sorted(os.listdir(accounts)):
            with open(os.path.join(accounts, name), "rb") as f:
                out[name] = f.read()
        return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sigil")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="sigil-keystore-interop-") as tmp:
        sigil = Sigil(args.sigil, tmp)

        # 1. sigil export -> independent decoder and substrate-interface.
        for round_ in range(args.rounds):
            for scheme in ("sr25519", "ed25519", "ecdsa"):
                password = f"pässwörd 🔑 {secrets.token_hex(4)}"
                uri = "0x" + secrets.token_hex(32) + f"//hard{round_}"
                name = f"{scheme} {round_}"
                sigil.run("add", "-", "--scheme", scheme, "--name", name, "--json", password=password, stdin=uri + "\n")
                address = next(a for a, v in sigil.accounts().items() if v["name"] == name)
                out = os.path.join(tmp, f"export-{scheme}-{round_}.json")
                sigil.run("export", address, "--out", out, password=password)
                check(os.stat(out).st_mode & 0o777 == 0o600, "export file is 0600")
                with open(out) as f:
                    exported = json.load(f)
                check(exported["encoding"] == {"content": ["pkcs8", scheme], "type": ["scrypt", "xsalsa20-poly1305"],
                                               "version": "3"}, f"{scheme}: encoding block")
                check(exported["meta"]["name"] == name, "meta.name exported")
                plain, params = decrypt(exported, password)
                check(params == (32768, 1, 8), f"{scheme}: scrypt N=2^15, p=1, r=8 (got {params})")
                secret, public = split_pkcs8(plain, scheme)
                check(account_of(secret, public, scheme) == address, f"{scheme}: decrypted key is {address}")
                if scheme == "ecdsa":
                    check(exported["address"] == "0x" + public.hex(), "ecdsa: JSON address is the hex public key")
                else:
                    check(exported["address"] == address, f"{scheme}: JSON address")
                    kp = Keypair.create_from_encrypted_json(exported, password, ss58_format=42)
                    check(kp.ss58_address == address, f"{scheme}: substrate-interface decodes to {address}")
                    check(kp.verify(b"interop", kp.sign(b"interop")), f"{scheme}: decoded key signs")
                try:
                    decrypt(exported, password + "x")
                    check(False, "wrong password must not decrypt")
                except nacl.exceptions.CryptoError:
                    check(True, "wrong password rejected")

        # 2. Files written outside sigil -> sigil import.
        other = Sigil(args.sigil, tempfile.mkdtemp(dir=tmp))
        password = "import-" + secrets.token_hex(6)
        files, expected = [], []
        for round_ in range(args.rounds):
            kp = Keypair.create_from_mnemonic(Keypair.generate_mnemonic(), crypto_type=KeypairType.SR25519)
            files.append(kp.export_to_encrypted_json(password, name=f"si {round_}"))  # N = 2^15
            expected.append(kp.ss58_address)
            seed = nacl.signing.SigningKey.generate()
            pub = seed.verify_key.encode()
            files.append(pkcs8_file(seed.encode() + pub, pub, "ed25519", password, 1 << 17, f"ed {round_}"))
            expected.append(ss58_encode("0x" + pub.hex(), 42))
            ec = coincurve.PrivateKey()
            ecpub = ec.public_key.format(compressed=True)
            files.append(pkcs8_file(ec.secret, ecpub, "ecdsa", password, 1 << 17, f"ec {round_}"))
            expected.append(ss58_encode("0x" + hashlib.blake2b(ecpub, digest_size=32).hexdigest(), 42))

        # Negative cases first, on an empty and then a non-empty store: nothing may change.
        bad = os.path.join(tmp, "bad.json")
        for label, content, pw in [
            ("wrong password", json.dumps(files[0]), password + "!"),
            ("truncated file", json.dumps(files[1])[:150], password),
            ("altered ciphertext", json.dumps(dict(files[2], encoded=base64.b64encode(
                bytearray(base64.b64decode(files[2]["encoded"]))[:-1] + b"\x00").decode())), password),
        ]:
            before = other.snapshot() if os.path.isdir(os.path.join(other.home, "data", "accounts")) else {}
            with open(bad, "w") as f:
                f.write(content)
            p = other.run("import", bad, password=pw, ok=False)
            check(p.returncode != 0, f"{label}: import fails")
            check(p.stderr.strip() != "" and password not in p.stderr, f"{label}: clear error without the password")
            after = other.snapshot() if os.path.isdir(os.path.join(other.home, "data", "accounts")) else {}
            check(before == after, f"{label}: nothing changed on disk")

        for i, f_ in enumerate(files):
            path = os.path.join(tmp, f"in-{i}.json")
            with open(path, "w") as f:
                json.dump(f_, f)
            other.run("import", path, password=password)
        listed = other.accounts()
        for address in expected:
            check(address in listed, f"imported {address}")

        # Re-export what was imported and decrypt it independently.
        for address, info in listed.items():
            out = os.path.join(tmp, "re.json")
            other.run("export", address, "--out", out, password=password)
            with open(out) as f:
                exported = json.load(f)
            scheme = info["scheme"]
            plain, _ = decrypt(exported, password)
            secret, public = split_pkcs8(plain, scheme)
            check(account_of(secret, public, scheme) == address, f"round trip of {address}")

        # 3. A batch-pkcs8 export built as polkadot-js keyring.backupAccounts does.
        batch_plain = json.dumps(files).encode()
        salt_nonce_box = encrypt(batch_plain, password, 1 << 15)
        batch = {
            "encoded": salt_nonce_box,
            "encoding": {"content": ["batch-pkcs8"], "type": ["scrypt", "xsalsa20-poly1305"], "version": "3"},
            "accounts": [{"address": f["address"], "meta": f["meta"]} for f in files],
        }
        third = Sigil(args.sigil, tempfile.mkdtemp(dir=tmp))
        path = os.path.join(tmp, "batch.json")
        with open(path, "w") as f:
            json.dump(batch, f)
        report = json.loads(third.run("import", path, "--json", password=password).stdout)
        check(sorted(r["address"] for r in report) == sorted(expected), "batch: every account imported")
        check(all(r["imported"] for r in report), "batch: all new")
        check(sorted(third.accounts()) == sorted(expected), "batch: listed")

        # 4. A mnemonic file imports to the substrate-bip39 address.
        mnemonic = Keypair.generate_mnemonic()
        mpath = os.path.join(tmp, "mnemonic.txt")
        with open(mpath, "w") as f:
            f.write(mnemonic + "\n")
        report = json.loads(third.run("import", mpath, "--name", "m", "--json", password=password).stdout)
        check(report[0]["address"] == Keypair.create_from_mnemonic(mnemonic).ss58_address, "mnemonic import")

        # 5. `export --all` writes a batch-pkcs8 file decrypted here layer by layer.
        out = os.path.join(tmp, "all.json")
        third.run("export", "--all", "--out", out, password=password)
        with open(out) as f:
            exported = json.load(f)
        check(exported["encoding"]["content"] == ["batch-pkcs8"], "batch export content")
        plain, params = decrypt(exported, password)
        check(params == (32768, 1, 8), "batch export scrypt parameters")
        inner = json.loads(plain)
        found = set()
        for entry in inner:
            scheme = entry["encoding"]["content"][1]
            secret, public = split_pkcs8(decrypt(entry, password)[0], scheme)
            found.add(account_of(secret, public, scheme))
        check(found == set(third.accounts()), "batch export holds every account")
        check(sorted(a["address"] for a in exported["accounts"]) == sorted(e["address"] for e in inner),
              "batch export lists its accounts in clear")

        # 6. Command-line safety: no terminal means no password prompt and no silent removal.
        p = third.run("add", "//NoPassword", ok=False)
        check(p.returncode != 0 and "--password-file" in p.stderr, "add without a terminal asks for --password-file")
        target = report[0]["address"]
        p = third.run("remove", target, ok=False)
        check(p.returncode != 0 and target in third.accounts(), "remove without --yes and no terminal keeps it")
        third.run("remove", target, "--yes")
        check(target not in third.accounts(), "remove --yes removes")

    print(f"keystore interop: {checks} checks passed")


if __name__ == "__main__":
    main()
