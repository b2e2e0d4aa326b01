#!/usr/bin/env bash
# tier: fast
# proves: Sigil's Ethereum keys, BIP-44 accounts, EIP-55, transactions of all three types (signed, hashed, decoded), RLP, personal_sign, EIP-712 and keystore v3 files agree with eth-account, eth-keyfile and pyrlp
# Interop of the Ethereum codec and keys (issue 23) with eth-account, eth-keyfile, eth-utils and rlp from
# PyPI, through the EthereumInterop JSON-lines filter: random secrets (address), random mnemonics at
# m/44'/60'/0'/0/i, EIP-55 checksums and case mutations, random legacy/EIP-2930/EIP-1559 transactions
# from eth_sendTransaction params (raw, hash, v/r/s; eth-account's raw decoded back; bit flips), pyrlp
# round trips and mutations, personal_sign, random EIP-712 type systems with nested arrays, and keystore
# v3 files both ways (scrypt and pbkdf2).
# ETH_INTEROP_ROUNDS sets the scale (default 200: about 3,300 checks); seeded, so reproducible.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
"$root/scripts/setup" --python >&2
bin=$(swift build --show-bin-path)
[ -x "$bin/EthereumInterop" ] || swift build --product EthereumInterop >&2
timeout 600 "$root/.venv-test/bin/python" "$root/scripts/interop/ethereum_interop.py" "$bin/EthereumInterop" \
    --rounds "${ETH_INTEROP_ROUNDS:-200}" --seed "${ETH_INTEROP_SEED:-20261127}"
