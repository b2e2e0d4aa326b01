#!/usr/bin/env python3
"""Generates Tests/MetadataHashTests/Resources/proofs.json: RFC-0078 proofs for signed extrinsics
given in parts, computed by the reference implementation (the merkleized-metadata crate 0.5.1 in
PyPI's bittensor-core, `generate_extrinsic_proof`, which returns the proof followed by the
extrinsic metadata and the extra information, as Ledger's generic app takes them).

Calls per fixture metadata: System.remark, Balances.transfer_keep_alive (to //Alice) and
Utility.batch of two remarks (pallet indices checked with `sigil call decode`). Extensions of
these runtimes: era, nonce and tip in the extrinsic; spec and transaction version, genesis hash and
era block hash signed.

Run from the repository root with the test venv (scripts/setup --python):
    .venv-test/bin/python scripts/interop/metadata_proof_vectors.py > Tests/MetadataHashTests/Resources/proofs.json
"""
import json

import bittensor_core

RESOURCES = "Tests/MetadataHashTests/Resources/"
ALICE = bytes.fromhex("d43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d")
# (file, Balances index, Utility index, spec version, transaction version)
CHAINS = [("rococo-v15.scale", 4, 24, 1006002, 24), ("polkadot-v15.scale", 5, 26, 1001002, 25),
          ("kusama-v15.scale", 4, 24, 1001002, 25), ("acala-v15.scale", 10, 3, 2230, 3)]
EXTRA = {"specVersion": 1, "specName": "nice", "base58Prefix": 1, "decimals": 1, "tokenSymbol": "lol"}


def compact(n):
    if n < 1 << 6:
        return bytes([n << 2])
    if n < 1 << 14:
        return ((n << 2) | 1).to_bytes(2, "little")
    if n < 1 << 30:
        return ((n << 2) | 2).to_bytes(4, "little")
    raw = n.to_bytes((n.bit_length() + 7) // 8, "little")
    return bytes([((len(raw) - 4) << 2) | 3]) + raw


def remark(text):
    return bytes([0, 0]) + compact(len(text)) + text


vectors = []
for name, balances, utility, spec, tx in CHAINS:
    raw = open(RESOURCES + name, "rb").read()
    calls = {
        "System.remark": remark(b"hello"),
        "Balances.transfer_keep_alive": bytes([balances, 3, 0]) + ALICE + compact(12_345_000_000),
        "Utility.batch": bytes([utility, 0]) + compact(2) + remark(b"abcde") + remark(b"fghij"),
    }
    # era mortal (period 64, phase 29: bytes d5 01), nonce 7, tip 1000 | spec, tx, genesis, block hash
    explicit = bytes([0xD5, 0x01]) + compact(7) + compact(1000)
    implicit = spec.to_bytes(4, "little") + tx.to_bytes(4, "little") + bytes(range(32)) + bytes(range(32, 64))
    for label, call in calls.items():
        blob = bittensor_core.generate_extrinsic_proof(
            call, explicit, implicit, raw, EXTRA["specVersion"], EXTRA["specName"], EXTRA["base58Prefix"],
            EXTRA["decimals"], EXTRA["tokenSymbol"])
        vectors.append({"metadata": name, "call": label, "callData": "0x" + call.hex(),
                        "includedInExtrinsic": "0x" + explicit.hex(), "includedInSignedData": "0x" + implicit.hex(),
                        "extraInfo": EXTRA, "proof": "0x" + bytes(blob).hex()})

print(json.dumps({
    "source": "scripts/interop/metadata_proof_vectors.py: merkleized-metadata 0.5.1 via bittensor-core "
              + "generate_extrinsic_proof (proof ‖ extrinsic metadata ‖ extra info)",
    "vectors": vectors,
}, indent=1))
