#!/usr/bin/env python3
"""Generates Tests/MetadataHashTests/Resources/merkle-layout.json: RFC-0078 merkle roots of small
hand-built type sets, computed independently of Sigil's Swift code.

Each set is the first N (0, 1, 2, 3, 5, 6, 8) of eight hand-built RFC-0078 `Type` leaves (written
below as Python values and SCALE-encoded here, by a separate small encoder). Leaf hashes come from
the PyPI `blake3` package; the tree is built exactly as RFC-0078's pseudo-code does it (a deque:
pop right, pop left from the back, push blake3(left ‖ right) to the front; the last element is the
root; 32 zero bytes for no leaves). The output records each leaf's encoding and hash, the nested
shape of the tree in leaf numbers (the RFC draws 5 leaves as [[[3, 4], 0], [1, 2]]), and the root.

Run from the repository root with the test venv (scripts/setup --python):
    .venv-test/bin/python scripts/interop/metadata_hash_vectors.py > Tests/MetadataHashTests/Resources/merkle-layout.json
"""
import json
from collections import deque

import blake3

# TypeRef indices (RFC-0078 `TypeRef`).
BOOL, U8, U32, COMPACT_U128 = 0, 3, 5, 19
BY_ID = 22


def compact(n):
    if n < 1 << 6:
        return bytes([n << 2])
    if n < 1 << 14:
        return ((n << 2) | 1).to_bytes(2, "little")
    if n < 1 << 30:
        return ((n << 2) | 2).to_bytes(4, "little")
    raw = n.to_bytes((n.bit_length() + 7) // 8, "little")
    return bytes([((len(raw) - 4) << 2) | 3]) + raw


def string(s):
    b = s.encode()
    return compact(len(b)) + b


def vec(items, enc):
    return compact(len(items)) + b"".join(enc(x) for x in items)


def option(v, enc):
    return b"\x00" if v is None else b"\x01" + enc(v)


def type_ref(r):
    # r is an int (a primitive index) or ("id", n)
    if isinstance(r, tuple):
        return bytes([BY_ID]) + compact(r[1])
    return bytes([r])


def field(f):
    name, ty, type_name = f
    return option(name, string) + type_ref(ty) + option(type_name, string)


def type_def(d):
    kind = d[0]
    if kind == "composite":
        return b"\x00" + vec(d[1], field)
    if kind == "enumeration":
        name, fields, index = d[1], d[2], d[3]
        return b"\x01" + string(name) + vec(fields, field) + compact(index)
    if kind == "sequence":
        return b"\x02" + type_ref(d[1])
    if kind == "array":
        return b"\x03" + d[1].to_bytes(4, "little") + type_ref(d[2])
    if kind == "tuple":
        return b"\x04" + vec(d[1], type_ref)
    if kind == "bitsequence":
        return b"\x05" + bytes([d[1], 1 if d[2] else 0])
    raise ValueError(kind)


def leaf(t):
    path, definition, type_id = t
    return vec(path, string) + type_def(definition) + compact(type_id)


# The eight hand-built leaves; MerkleTreeTests builds the same values as TypeLeaf.
LEAVES = [
    (["test", "Id"], ("composite", [("id", U32, "u32")]), 0),
    (["test", "Call"], ("enumeration", "transfer", [(None, ("id", 0), "Id"), ("amount", COMPACT_U128, "Balance")], 0), 1),
    (["test", "Call"], ("enumeration", "remark", [(None, ("id", 2), "Vec<u8>")], 5), 1),
    ([], ("sequence", U8), 2),
    ([], ("array", 32, U8), 3),
    ([], ("tuple", [("id", 0), BOOL]), 4),
    (["bitvec", "vec", "BitVec"], ("bitsequence", 1, True), 5),
    ([], ("sequence", ("id", 4)), 6),
]


def tree(n):
    hashes = [blake3.blake3(leaf(t)).digest() for t in LEAVES[:n]]
    nodes = deque(zip(hashes, [str(i) for i in range(n)]))
    while len(nodes) > 1:
        right = nodes.pop()
        left = nodes.pop()
        nodes.appendleft((blake3.blake3(left[0] + right[0]).digest(), f"[{left[1]}, {right[1]}]"))
    root, shape = nodes[-1] if nodes else (bytes(32), "")
    return {
        "leafCount": n,
        "leaves": [{"encoded": "0x" + leaf(t).hex(), "hash": "0x" + h.hex()} for t, h in zip(LEAVES, hashes)],
        "shape": shape,
        "root": "0x" + root.hex(),
    }


print(json.dumps({
    "source": "scripts/interop/metadata_hash_vectors.py with blake3 " + blake3.__version__
              + " (RFC-0078 'Building the Merkle Tree Root', independent of the Swift code)",
    "vectors": [tree(n) for n in (0, 1, 2, 3, 5, 6, 8)],
}, indent=1))
