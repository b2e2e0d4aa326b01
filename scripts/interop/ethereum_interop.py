#!/usr/bin/env python3
"""Interop of Sigil's Ethereum code (EthereumCodec, SigningKeys.EthereumKeyPair,
Keystore.EthereumKeystoreFile) with independent implementations from PyPI, through the
EthereumInterop JSON-lines filter.

- Keys: random secrets → address and public key (eth-account / eth-keys).
- BIP-44: random BIP-39 mnemonics (eth-account's Mnemonic from seeded entropy), random index →
  Account.from_mnemonic at m/44'/60'/0'/0/i (unaudited HD wallet features enabled).
- EIP-55: random addresses checksummed (eth-utils); random case mutations accepted by Sigil exactly
  when eth-utils calls them a valid checksum or they are single-case.
- Transactions: random legacy (EIP-155), EIP-2930 and EIP-1559 transactions (contract creation,
  access lists, large values) given to Sigil as eth_sendTransaction params; raw bytes, tx hash and
  v/r/s must equal Account.sign_transaction's; Account.recover_transaction gives the key's address;
  Sigil decodes eth-account's raw bytes back to the same fields and sender.
- RLP: random nested items encoded by pyrlp decode in Sigil and re-encode to the same bytes;
  random byte mutations are accepted by Sigil exactly when rlp.decode(strict=True) accepts them.
- personal_sign: random text and binary messages: hash and signature equal eth-account's
  sign_message(encode_defunct(...)).
- EIP-712: random type systems (nested structs, dynamic, fixed and nested arrays, every atomic
  type, negative ints, unicode strings) and values: digest and signature equal
  eth_account.messages.encode_typed_data(full_message=...) + sign_message.
- Keystore v3: eth-keyfile files (scrypt and pbkdf2) decrypt in Sigil; Sigil's files decrypt in
  eth-keyfile; wrong passwords refused.
- Accounts (SignerCore SigningService over an Ethereum keyring): an address in a random case
  resolves to the EIP-55 key; signEthereumHash of random hashes equals eth-account's
  unsafe_sign_hash byte for byte and recovers to the address; wrong lengths and strangers refused.
- The command line (with --sigil): `sigil accounts add --chain ethereum --keystore` of eth-keyfile
  files (both KDFs), `sigil accounts add --chain ethereum -` of mnemonics at random indices
  (Account.from_mnemonic) and of raw keys, `sigil accounts list --json` (EIP-55), `sigil accounts
  export --chain ethereum` (both KDFs) read back by eth_keyfile.decode_keyfile_json and
  Account.decrypt, and the data directory unlocked and signing through SigningService (dirSign).

Usage: ethereum_interop.py PATH-TO-EthereumInterop [--rounds N] [--seed S] [--sigil PATH-TO-sigil]
All keys are random throwaway keys. Exits non-zero on any disagreement.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

import eth_keyfile
import rlp
from eth_account import Account
from eth_account.hdaccount.mnemonic import Mnemonic
from eth_account.messages import encode_defunct, encode_typed_data
from eth_utils import is_checksum_address, keccak, to_checksum_address

Account.enable_unaudited_hdwallet_features()

from interop_filter import Filter, count, fail, tally  # noqa: E402


def h(b):
    return "0x" + bytes(b).hex()


def secret(r):
    while True:
        k = r.randbytes(32)
        if 0 < int.from_bytes(k, "big") < 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141:
            return k


def big(r):
    return r.choice([0, 1, r.randrange(1 << 8), r.randrange(1 << 64), r.randrange(1 << 128), (1 << 256) - 1, r.randrange(1 << 256)])


def check_keys(f, r, n):
    for _ in range(n):
        k = secret(r)
        a = f.ask(op="key", secret=k.hex())
        acct = Account.from_key(k)
        if a.get("address") != acct.address:
            fail(f"key address {acct.address} vs {a}")
        count("key → address")


def check_mnemonics(f, r, n):
    try:  # eth-account ≥ 0.14 takes a Language enum, 0.13 a string
        from eth_account.hdaccount.mnemonic import Language
        m = Mnemonic(Language.ENGLISH)
    except ImportError:
        m = Mnemonic("english")
    for _ in range(n):
        phrase = m.to_mnemonic(r.randbytes(r.choice([16, 20, 24, 28, 32])))
        i = r.choice([0, 1, 2, r.randrange(1000), r.randrange(1 << 31)])
        a = f.ask(op="mnemonic", phrase=phrase, index=i)
        acct = Account.from_mnemonic(phrase, account_path=f"m/44'/60'/0'/0/{i}")
        if a.get("address") != acct.address:
            fail(f"mnemonic index {i}: {acct.address} vs {a}")
        count("BIP-44 m/44'/60'/0'/0/i")


def check_eip55(f, r, n):
    for _ in range(n):
        addr = to_checksum_address(r.randbytes(20))
        a = f.ask(op="address", text=addr)
        if a.get("checksummed") != addr:
            fail(f"eip55 {addr} vs {a}")
        count("EIP-55 checksum")
        chars = list(addr[2:])
        letters = [i for i, c in enumerate(chars) if c.isalpha()]
        if letters:
            i = r.choice(letters)
            chars[i] = chars[i].swapcase()
        mutated = "0x" + "".join(chars)
        body = mutated[2:]
        expect = is_checksum_address(mutated) or body == body.lower() or body == body.upper()
        a = f.ask(op="address", text=mutated)
        if a["ok"] != expect:
            fail(f"eip55 mutation {mutated}: sigil {a}, expected ok={expect}")
        count("EIP-55 case mutation")


def random_access_list(r):
    out = []
    for _ in range(r.choice([0, 1, 2, 3])):
        out.append({"address": h(r.randbytes(20)), "storageKeys": [h(r.randbytes(32)) for _ in range(r.choice([0, 1, 2]))]})
    return out


def check_transactions(f, r, n):
    for i in range(n):
        k = secret(r)
        acct = Account.from_key(k)
        t = i % 3
        chain = r.choice([1, 5, 1337, 11155111, r.randrange(1, 1 << 32)])
        tx = {
            "nonce": r.choice([0, 1, r.randrange(1 << 20), r.randrange(1 << 64)]),
            "gas": r.choice([21000, r.randrange(1 << 32), r.randrange(1 << 63)]),
            "to": None if r.random() < 0.15 else to_checksum_address(r.randbytes(20)),
            "value": big(r),
            "data": h(r.randbytes(r.choice([0, 4, 36, 68, r.randrange(300)]))),
            "chainId": chain,
        }
        if t == 0:
            tx["gasPrice"] = big(r)
        elif t == 1:
            tx["type"] = 1
            tx["gasPrice"] = big(r)
            tx["accessList"] = random_access_list(r)
        else:
            tx["type"] = 2
            cap = big(r)
            tx["maxFeePerGas"] = cap
            tx["maxPriorityFeePerGas"] = r.randrange(cap + 1)
            tx["accessList"] = random_access_list(r)
        if tx["to"] is None:
            del tx["to"]
        signed = Account.sign_transaction(tx, k)
        params = {"from": acct.address.lower()}
        for key, value in tx.items():
            if key in ("type", "chainId", "nonce", "gas", "value", "gasPrice", "maxFeePerGas", "maxPriorityFeePerGas"):
                params[key] = hex(value)
            elif key == "to":
                params["to"] = value.lower()
            elif key == "data":
                params[r.choice(["data", "input"])] = value
            elif key == "accessList":
                params["accessList"] = value
        a = f.ask(op="tx", secret=k.hex(), chainId=str(chain), params=params)
        kind = ["legacy EIP-155", "EIP-2930", "EIP-1559"][t]
        if not a.get("ok"):
            fail(f"tx {kind} refused: {a} {params}")
            continue
        if a["raw"] != h(signed.raw_transaction) or a["hash"] != h(signed.hash):
            fail(f"tx {kind} raw/hash differ: {params}\n sigil {a['raw']}\n py    {h(signed.raw_transaction)}")
        if a["v"] != str(signed.v) or int(a["r"], 16) != signed.r or int(a["s"], 16) != signed.s:
            fail(f"tx {kind} v/r/s differ")
        if a["signingHash"] != h(keccak(hexstr=a["preimage"])):
            fail("tx signing hash is not keccak(preimage)")
        if Account.recover_transaction(a["raw"]) != acct.address:
            fail(f"tx {kind}: eth-account recovers another sender")
        count(f"tx {kind} signed = eth-account")
        d = f.ask(op="decodeTx", raw=h(signed.raw_transaction))
        if not d.get("ok") or d.get("sender") != acct.address or d.get("reencoded") != h(signed.raw_transaction):
            fail(f"decode of eth-account's {kind} raw: {d}")
        else:
            got = d["tx"]
            want_to = tx.get("to", None)
            if (got["to"] or None) != (want_to.lower() if want_to else None) or got["value"] != str(tx["value"]) \
                    or got["nonce"] != str(tx["nonce"]) or got["gas"] != str(tx["gas"]) or got["data"] != tx["data"] \
                    or got["chainId"] != str(chain):
                fail(f"decoded fields differ: {got} vs {tx}")
        count(f"tx {kind} decoded from eth-account")
        # A mutated raw transaction: refused, or it decodes and recovers to some sender eth-account agrees on.
        raw = bytearray(signed.raw_transaction)
        j = r.randrange(len(raw))
        raw[j] ^= 1 << r.randrange(8)
        d = f.ask(op="decodeTx", raw=h(raw))
        if d.get("ok") and d.get("signed"):
            try:
                theirs = Account.recover_transaction(h(raw))
            except Exception:
                theirs = None
            if theirs != d["sender"]:
                fail(f"mutated {kind}: sigil accepts with sender {d['sender']}, eth-account {theirs}")
        count(f"tx {kind} bit flip")


def random_rlp(r, depth=0):
    if depth < 5 and r.random() < 0.3:
        return [random_rlp(r, depth + 1) for _ in range(r.choice([0, 1, 2, 3, 5]))]
    return r.randbytes(r.choice([0, 1, 1, 2, 20, 55, 56, 57, r.randrange(300)]))


def check_rlp(f, r, n):
    for _ in range(n):
        item = random_rlp(r)
        enc = rlp.encode(item)
        a = f.ask(op="rlp", rlp=enc.hex())
        if a.get("reencoded") != h(enc):
            fail(f"rlp {enc.hex()} → {a}")
        count("RLP pyrlp-encoded round trip")
        mutated = bytearray(enc)
        action = r.randrange(3)
        if action == 0 and mutated:
            mutated[r.randrange(len(mutated))] = r.randrange(256)
        elif action == 1 and mutated:
            del mutated[r.randrange(len(mutated)):]
        else:
            mutated += bytes([r.randrange(256)])
        try:
            rlp.decode(bytes(mutated), strict=True)
            expect = True
        except Exception:
            expect = False
        a = f.ask(op="rlp", rlp=bytes(mutated).hex())
        if a["ok"] != expect:
            fail(f"rlp mutation {bytes(mutated).hex()}: sigil {a}, pyrlp ok={expect}")
        count("RLP mutation, same verdict as pyrlp strict")


def check_personal(f, r, n):
    alphabet = "abcXYZ 019,.!?\n\tüß世界👋"
    for i in range(n):
        k = secret(r)
        if i % 2:
            text = "".join(r.choice(alphabet) for _ in range(r.randrange(0, 200)))
            if text.startswith("0x"):
                text = "_" + text
            message, param = text.encode(), text
        else:
            message = r.randbytes(r.randrange(0, 300))
            param = h(message)
        a = f.ask(op="personal", secret=k.hex(), param=param)
        s = Account.sign_message(encode_defunct(primitive=message), k)
        if a.get("hash") != h(s.message_hash) or a.get("signature") != h(s.signature):
            fail(f"personal_sign {param!r}: {a}")
        count("personal_sign = eth-account")


ATOMIC = ["bool", "address", "string", "bytes", "uint8", "uint256", "uint64", "uint160", "int8", "int256", "int64",
          "bytes1", "bytes4", "bytes32"]


def random_types(r):
    names = ["Alpha", "Beta", "Gamma", "Delta", "Zed", "aLower", "Mail", "Person"]
    r.shuffle(names)
    structs = names[: r.randrange(1, 5)]
    types = {}
    for idx, s in enumerate(structs):
        fields = []
        for j in range(r.randrange(1, 6)):
            base = r.choice(ATOMIC)
            later = structs[idx + 1:]
            if later and r.random() < 0.4:
                base = r.choice(later)  # only later structs: no cycles
            suffix = r.choice(["", "", "", "[]", "[2]", "[][]", "[3][]", "[][2]"])
            fields.append({"name": f"f{j}", "type": base + suffix})
        if idx + 1 < len(structs):
            # Reach the next struct, so that primaryType is the one root (eth-account infers it).
            fields.insert(r.randrange(len(fields) + 1), {"name": "next", "type": structs[idx + 1] + r.choice(["", "[]", "[1]"])})
        types[s] = fields
    return structs[0], types


def random_value(r, t, types, depth=0):
    if t.endswith("]"):
        open_ = t.rindex("[")
        inner, dim = t[:open_], t[open_ + 1:-1]
        n = int(dim) if dim else r.randrange(0, 3 if depth < 3 else 1)
        return [random_value(r, inner, types, depth + 1) for _ in range(n)]
    if t in types:
        return {fd["name"]: random_value(r, fd["type"], types, depth + 1) for fd in types[t]}
    if t == "bool":
        return r.random() < 0.5
    if t == "address":
        a = to_checksum_address(r.randbytes(20))
        return r.choice([a, a.lower()])
    if t == "string":
        return "".join(r.choice("ab Zü世👋,()") for _ in range(r.randrange(0, 20)))
    if t == "bytes":
        return h(r.randbytes(r.randrange(0, 70)))
    if t.startswith("bytes"):
        return h(r.randbytes(int(t[5:])))
    if t.startswith("uint"):
        bits = int(t[4:])
        v = r.choice([0, 1, (1 << bits) - 1, r.randrange(1 << bits)])
        return r.choice([v, str(v)]) if v < (1 << 53) else str(v)
    if t.startswith("int"):
        bits = int(t[3:])
        v = r.choice([0, -1, -(1 << (bits - 1)), (1 << (bits - 1)) - 1, r.randrange(-(1 << (bits - 1)), 1 << (bits - 1))])
        return r.choice([v, str(v)]) if abs(v) < (1 << 53) else str(v)
    raise ValueError(t)


def check_typed(f, r, n):
    for _ in range(n):
        k = secret(r)
        primary, types = random_types(r)
        domain_fields = [("name", "string"), ("version", "string"), ("chainId", "uint256"),
                         ("verifyingContract", "address"), ("salt", "bytes32")]
        chosen = [d for d in domain_fields if r.random() < 0.6]
        domain = {name: random_value(r, typ, {}) for name, typ in chosen}
        if "chainId" in domain:
            domain["chainId"] = r.choice([1, 1337, "0x539", "137"])
            if isinstance(domain["chainId"], str) and domain["chainId"].startswith("0x"):
                domain["chainId"] = int(domain["chainId"], 16)
        types["EIP712Domain"] = [{"name": name, "type": typ} for name, typ in chosen]
        message = random_value(r, primary, types)
        full = {"types": types, "primaryType": primary, "domain": domain, "message": message}
        try:
            s = Account.sign_message(encode_typed_data(full_message=full), k)
        except Exception as e:  # noqa: BLE001 - a shape eth-account refuses: not a comparison
            if os.environ.get("ETH_INTEROP_DEBUG"):
                print("skip:", type(e).__name__, e, file=sys.stderr)
            count("EIP-712 skipped (eth-account refuses the shape)")
            continue
        a = f.ask(op="typed", secret=k.hex(), json=json.dumps(full))
        if a.get("digest") != h(s.message_hash) or a.get("signature") != h(s.signature):
            fail(f"EIP-712 digest differs: {a}\n{json.dumps(full)}\n py {h(s.message_hash)}")
        count("EIP-712 digest and signature = eth-account")


def check_keystores(f, r, n):
    for i in range(n):
        k = secret(r)
        acct = Account.from_key(k)
        password = "".join(r.choice("abcdefü1234 ") for _ in range(r.randrange(1, 16)))
        kdf = ["scrypt", "pbkdf2"][i % 2]
        iterations = 1 << 10 if kdf == "scrypt" else 1000
        theirs = eth_keyfile.create_keyfile_json(k, password.encode(), kdf=kdf, iterations=iterations)
        a = f.ask(op="keystoreDecrypt", json=json.dumps(theirs), password=password)
        if a.get("address") != acct.address or a.get("secret") != h(k):
            fail(f"eth-keyfile {kdf} file not opened by Sigil: {a}")
        count(f"keystore eth-keyfile {kdf} → Sigil")
        a = f.ask(op="keystoreDecrypt", json=json.dumps(theirs), password=password + "x")
        if a.get("ok") or a.get("code") != "decryptFailed":
            fail(f"wrong password accepted: {a}")
        count("keystore wrong password refused")
        if kdf == "scrypt":
            a = f.ask(op="keystoreEncrypt", secret=k.hex(), password=password, kdf="scrypt", n=1 << 10)
        else:
            a = f.ask(op="keystoreEncrypt", secret=k.hex(), password=password, kdf="pbkdf2", iterations=1000)
        ours = json.loads(a["json"])
        if eth_keyfile.decode_keyfile_json(ours, password.encode()) != k:
            fail(f"Sigil {kdf} file not opened by eth-keyfile")
        if to_checksum_address("0x" + ours["address"]) != acct.address:
            fail("Sigil file address")
        count(f"keystore Sigil {kdf} → eth-keyfile")


def sign_hash_reference(k, digest):
    """eth-account's signature of a bare 32-byte hash as r ‖ s ‖ yParity (v - 27)."""
    sign = getattr(Account, "unsafe_sign_hash", None) or Account._sign_hash
    s = sign(digest, k)
    return s.r.to_bytes(32, "big") + s.s.to_bytes(32, "big") + bytes([s.v - 27])


def recover_hash(digest, sig65):
    vrs = (sig65[64] + 27, int.from_bytes(sig65[:32], "big"), int.from_bytes(sig65[32:64], "big"))
    return Account._recover_hash(digest, vrs=vrs)


def random_case(r, address):
    body = address[2:]
    return "0x" + r.choice([body, body.lower(), body.upper(), "".join(c.swapcase() if r.random() < 0.5 else c for c in body)])


def check_service(f, r, n):
    for _ in range(n):
        keys = [secret(r) for _ in range(r.choice([1, 2, 3]))]
        k = r.choice(keys)
        acct = Account.from_key(k)
        digest = r.randbytes(32)
        a = f.ask(op="serviceSign", secrets=[x.hex() for x in keys], address=random_case(r, acct.address), hash=digest.hex())
        if a.get("key") != acct.address or a.get("address") != acct.address:
            fail(f"serviceSign account {acct.address}: {a}")
        if sorted(a.get("accounts", [])) != sorted({Account.from_key(x).address for x in keys}) or a.get("polkadot") != []:
            fail(f"serviceSign accounts list: {a}")
        sig = bytes.fromhex(a.get("signature", "0x")[2:])
        if sig != sign_hash_reference(k, digest):
            fail(f"signEthereumHash differs from eth-account for {acct.address}: {a}")
        if recover_hash(digest, sig) != acct.address:
            fail(f"signEthereumHash does not recover to {acct.address}")
        count("signEthereumHash = eth-account, recovers")
        bad = r.choice([0, 1, 31, 33, 64])
        a = f.ask(op="serviceSign", secrets=[x.hex() for x in keys], address=acct.address, hash=r.randbytes(bad).hex())
        if a.get("ok") or a.get("code") != "badLength":
            fail(f"a {bad}-byte hash was not refused: {a}")
        count("signEthereumHash refuses a hash that is not 32 bytes")
        stranger = Account.from_key(secret(r)).address
        a = f.ask(op="serviceSign", secrets=[x.hex() for x in keys], address=stranger, hash=digest.hex())
        if a.get("ok") or a.get("code") != "unknownAccount":
            fail(f"an address without a key was signed for: {a}")
        count("signEthereumHash refuses an account without a key")


class Cli:
    """`sigil` with a throw-away data directory and password file."""

    def __init__(self, binary, password):
        self.binary = binary
        self.tmp = tempfile.mkdtemp(prefix="sigil-eth-interop-")
        self.data = os.path.join(self.tmp, "data")
        self.pwfile = os.path.join(self.tmp, "pw")
        with open(self.pwfile, "w") as out:
            out.write(password + "\n")
        os.chmod(self.pwfile, 0o600)

    def run(self, *args, stdin=None, ok=True):
        password = [] if args[:2] == ("accounts", "list") else ["--password-file", self.pwfile]
        p = subprocess.run([self.binary, *args, "--data-dir", self.data, *password],
                           input=stdin, capture_output=True, text=True, timeout=120)
        if ok and p.returncode != 0:
            fail(f"sigil {' '.join(args[:4])} failed: {p.stderr.strip()}")
        return p

    def path(self, name):
        return os.path.join(self.tmp, name)

    def close(self):
        shutil.rmtree(self.tmp, ignore_errors=True)


def check_cli(f, r, sigil, n):
    password = "pw " + "".join(r.choice("abcdefü1234") for _ in range(8))
    cli = Cli(sigil, password)
    expected = {}
    secrets = []
    try:
        for i in range(n):
            # eth-keyfile files, both KDFs (cheap costs; the file keeps its own encryption).
            k = secret(r)
            acct = Account.from_key(k)
            kdf = ["scrypt", "pbkdf2"][i % 2]
            theirs = eth_keyfile.create_keyfile_json(k, password.encode(), kdf=kdf, iterations=1 << 10 if kdf == "scrypt" else 1000)
            if r.random() < 0.3:
                theirs.pop("address")  # the format allows a file without one
            path = cli.path(f"in{i}.json")
            with open(path, "w") as out:
                json.dump(theirs, out)
            p = cli.run("accounts", "add", "--chain", "ethereum", "--keystore", path, "--name", f"k{i}", "--json")
            got = json.loads(p.stdout or "{}").get("address")
            if got != acct.address:
                fail(f"sigil accounts add --keystore ({kdf}): {got} vs {acct.address}")
            expected[acct.address] = k
            secrets.append(k)
            count(f"CLI add --keystore of an eth-keyfile {kdf} file")
        # The same file again: already present, nothing changed.
        p = cli.run("accounts", "add", "--chain", "ethereum", "--keystore", cli.path("in0.json"), "--json")
        if json.loads(p.stdout or "{}").get("imported") is not False:
            fail(f"a second import was not 'already present': {p.stdout}")
        count("CLI add --keystore twice: already present")
        # A wrong password changes nothing.
        bad = eth_keyfile.create_keyfile_json(secret(r), b"another password", kdf="pbkdf2", iterations=1000)
        with open(cli.path("bad.json"), "w") as out:
            json.dump(bad, out)
        p = cli.run("accounts", "add", "--chain", "ethereum", "--keystore", cli.path("bad.json"), ok=False)
        if p.returncode == 0 or "decryptFailed" not in p.stderr or "another password" in p.stderr:
            fail(f"a keystore file with another password was accepted or echoed: {p.stderr}")
        count("CLI add --keystore with a wrong password refused")
        # Mnemonics at random indices and raw keys through standard input.
        try:  # eth-account ≥ 0.14 takes a Language enum, 0.13 a string
            from eth_account.hdaccount.mnemonic import Language
            m = Mnemonic(Language.ENGLISH)
        except ImportError:
            m = Mnemonic("english")
        for i in range(max(n // 3, 2)):
            phrase = m.to_mnemonic(r.randbytes(16))
            index = r.choice([0, 1, r.randrange(100), r.randrange(1 << 31)])
            acct = Account.from_mnemonic(phrase, account_path=f"m/44'/60'/0'/0/{index}")
            p = cli.run("accounts", "add", "--chain", "ethereum", "-", "--index", str(index), "--json", stdin=phrase + "\n")
            if json.loads(p.stdout or "{}").get("address") != acct.address:
                fail(f"sigil accounts add mnemonic at index {index}: {p.stdout} vs {acct.address}")
            if phrase in p.stdout + p.stderr:
                fail("the mnemonic was echoed")
            expected[acct.address] = bytes(acct.key)
            count("CLI add of a mnemonic at m/44'/60'/0'/0/i = eth-account")
            k = secret(r)
            raw = r.choice(["0x" + k.hex(), k.hex(), "0x" + k.hex().upper()])
            p = cli.run("accounts", "add", "--chain", "ethereum", "-", "--json", stdin=raw + "\n")
            if json.loads(p.stdout or "{}").get("address") != Account.from_key(k).address:
                fail(f"sigil accounts add of a raw key: {p.stdout}")
            expected[Account.from_key(k).address] = k
            count("CLI add of a raw private key")
        # The list: every account, EIP-55.
        p = cli.run("accounts", "list", "--json")
        listed = {a["address"] for a in json.loads(p.stdout or "[]") if a.get("scheme") == "ethereum"}
        if listed != set(expected):
            fail(f"sigil accounts list: {sorted(listed ^ set(expected))} differ")
        if not all(is_checksum_address(a) for a in listed):
            fail("sigil accounts list: an address is not EIP-55")
        count("CLI list = the accounts added, EIP-55")
        # Exports, both KDFs, by address in a random case: eth-keyfile and Account.decrypt read them.
        for i, (address, k) in enumerate(sorted(expected.items())):
            if i >= max(n // 2, 4):  # scrypt N = 2^17 and pbkdf2 c = 262,144: the real costs
                break
            kdf = ["scrypt", "pbkdf2"][i % 2]
            out = cli.path(f"out{i}.json")
            cli.run("accounts", "export", "--chain", "ethereum", random_case(r, address), "--kdf", kdf, "--out", out)
            try:
                with open(out) as fh:
                    ours = json.load(fh)
                if "sigil" in ours or ours["crypto"]["kdf"] != kdf:
                    fail(f"export {kdf}: unexpected fields {sorted(ours)}")
                if eth_keyfile.decode_keyfile_json(ours, password.encode()) != k:
                    fail(f"eth-keyfile does not open Sigil's {kdf} export of {address}")
                if Account.from_key(Account.decrypt(ours, password)).address != address:
                    fail(f"Account.decrypt of Sigil's {kdf} export of {address}")
                if to_checksum_address("0x" + ours["address"]) != address:
                    fail("export address field")
            except (OSError, ValueError, KeyError) as e:
                fail(f"export {kdf} of {address}: {e}")
            count(f"CLI export {kdf} → eth-keyfile decode_keyfile_json and Account.decrypt")
        # The data directory unlocked with the password signs through SigningService (sigil serve's path).
        items = [(address, k, r.randbytes(32)) for address, k in expected.items() for _ in range(3)]
        a = f.ask(op="dirSign", dir=cli.data, password=password,
                  items=[{"address": random_case(r, address), "hash": d.hex()} for address, _, d in items])
        answers = a.get("answers", [])
        if len(answers) != len(items):
            fail(f"dirSign: {a}")
        for (address, k, digest), b in zip(items, answers):
            sig = bytes.fromhex(b.get("signature", "0x")[2:])
            if b.get("key") != address or sig != sign_hash_reference(k, digest) or recover_hash(digest, sig) != address:
                fail(f"dirSign {address}: {b}")
            count("data directory → unlockAll → signEthereumHash = eth-account")
    finally:
        cli.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--seed", type=int, default=20261127)
    ap.add_argument("--sigil", help="the sigil binary: also check the command line (accounts add/list/export)")
    args = ap.parse_args()
    r = random.Random(args.seed)
    f = Filter(args.binary)
    n = args.rounds
    check_keys(f, r, n)
    check_mnemonics(f, r, max(n // 4, 10))
    check_eip55(f, r, n)
    check_transactions(f, r, 3 * n)
    check_rlp(f, r, n)
    check_personal(f, r, n)
    check_typed(f, r, n)
    check_keystores(f, r, max(n // 10, 6))
    check_service(f, r, n)
    if args.sigil:
        check_cli(f, r, args.sigil, max(n // 10, 6))
    total = sum(tally.counts.values())
    for kind in sorted(tally.counts):
        print(f"  {tally.counts[kind]:6d}  {kind}")
    print(f"ethereum interop: {total} checks, {tally.failures} failures (seed {args.seed}, rounds {n})")
    sys.exit(1 if tally.failures else 0)


if __name__ == "__main__":
    main()
