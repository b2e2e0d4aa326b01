"""Checks one `pub(extrinsic.sign)` reply of scripts/bench-sign before it is timed: the signature
must be a valid sr25519 signature, by the payload's account, over the signing bytes of the payload,
which this script builds on its own (SCALE by hand, as docs/reference/polkadot-extension.md §2.2
describes: call, the extensions' explicit fields in list order, then their implicit fields, hashed
with BLAKE2b-256 when longer than 256 bytes). The verifier is schnorrkel (py-sr25519-bindings).

    verify_sign.py PAYLOAD.json REPLY.json      exit 0 and one line when valid, else exit 1
"""
import hashlib
import json
import sys

import sr25519
from substrateinterface.utils.ss58 import ss58_decode

# The extensions this bench payload uses: (explicit fields, implicit fields), per the reference.
EXTENSIONS = {
    "AuthorizeCall": ([], []), "CheckNonZeroSender": ([], []), "CheckWeight": ([], []),
    "PrevalidateAttests": ([], []),
    "CheckSpecVersion": ([], ["specVersion"]), "CheckTxVersion": ([], ["transactionVersion"]),
    "CheckGenesis": ([], ["genesisHash"]), "CheckMortality": (["era"], ["blockHash"]),
    "CheckNonce": (["nonce"], []), "ChargeTransactionPayment": (["tip"], []),
    "CheckMetadataHash": (["mode"], ["metadataHash"]),
}


def unhex(text):
    assert text.startswith("0x"), text
    return bytes.fromhex(text[2:])


def compact(n):
    if n < 1 << 6:
        return bytes([n << 2])
    if n < 1 << 14:
        return ((n << 2) | 1).to_bytes(2, "little")
    if n < 1 << 30:
        return ((n << 2) | 2).to_bytes(4, "little")
    raw = n.to_bytes((n.bit_length() + 7) // 8, "little")
    return bytes([((len(raw) - 4) << 2) | 3]) + raw


def number(value):
    return int(value, 16) if isinstance(value, str) else int(value)


def field(name, p):
    if name == "era":
        return unhex(p["era"])
    if name == "nonce":
        return compact(number(p["nonce"]))
    if name == "tip":
        return compact(number(p["tip"]))
    if name == "mode":
        return bytes([p.get("mode", 0)])
    if name == "specVersion":
        return number(p["specVersion"]).to_bytes(4, "little")
    if name == "transactionVersion":
        return number(p["transactionVersion"]).to_bytes(4, "little")
    if name in ("genesisHash", "blockHash"):
        return unhex(p[name])
    if name == "metadataHash":
        return b"\x01" + unhex(p["metadataHash"]) if p.get("metadataHash") else b"\x00"
    raise ValueError(name)


def signing_bytes(p):
    seen, extra, implicit = set(), [], []
    for ext in p["signedExtensions"]:
        explicit_fields, implicit_fields = EXTENSIONS[ext]
        extra += [f for f in explicit_fields if f not in seen and not seen.add(f)]
    for ext in p["signedExtensions"]:
        implicit += [f for f in EXTENSIONS[ext][1] if f not in seen and not seen.add(f)]
    data = unhex(p["method"]) + b"".join(field(f, p) for f in extra) + b"".join(field(f, p) for f in implicit)
    return hashlib.blake2b(data, digest_size=32).digest() if len(data) > 256 else data


def main():
    payload = json.load(open(sys.argv[1]))
    reply = json.load(open(sys.argv[2]))
    signature = unhex(reply["response"]["signature"])
    if len(signature) != 65 or signature[0] != 0x01:
        print(f"not an sr25519 MultiSignature: {reply}")
        sys.exit(1)
    public = bytes.fromhex(ss58_decode(payload["address"]))
    message = signing_bytes(payload)
    if not sr25519.verify(signature[1:], message, public):
        print(f"the signature does not verify over {message.hex()}")
        sys.exit(1)
    # The same check must be able to fail: a flipped message bit is refused.
    tampered = bytes([message[0] ^ 1]) + message[1:]
    if sr25519.verify(signature[1:], tampered, public):
        print("the verifier accepted a tampered message")
        sys.exit(1)
    print(f"signature verified (schnorrkel): {len(message)} signing bytes, account {payload['address']}")


if __name__ == "__main__":
    main()
