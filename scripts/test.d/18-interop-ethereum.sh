#!/usr/bin/env bash
# Sigil's Ethereum keys, BIP-44 accounts, EIP-55, transactions of all three types, RLP, personal_sign, EIP-712 and keystore v3 files against eth-account, eth-keyfile and pyrlp.
# Interop of the Ethereum codec and keys (issue 23) with eth-account, eth-keyfile, eth-utils and rlp from
# PyPI, through the EthereumInterop JSON-lines filter: random secrets (address), random mnemonics at
# m/44'/60'/0'/0/i, EIP-55 checksums and case mutations, random legacy/EIP-2930/EIP-1559 transactions
# from eth_sendTransaction params (raw, hash, v/r/s; eth-account's raw decoded back; bit flips), pyrlp
# round trips and mutations, personal_sign, random EIP-712 type systems with nested arrays, and keystore
# v3 files both ways (scrypt and pbkdf2); Ethereum accounts in SigningService (addresses in any case,
# signEthereumHash = eth-account's signature, refusals); and the command line on a throw-away data
# directory: `sigil accounts add --chain ethereum` of eth-keyfile files (--keystore, both KDFs),
# mnemonics at random indices and raw keys, `accounts list`, `accounts export` read back by eth-keyfile
# and Account.decrypt, and the directory unlocked and signing as `sigil serve` does.
# ETH_INTEROP_ROUNDS sets the scale (default 200: about 4,000 checks; 60 in the fast tier); seeded.
# tier: fast
# typical: 20 s
# shellcheck source=../lib/harness.sh
. "$(dirname "$0")/../lib/harness.sh"
need EthereumInterop sigil
timeout 600 "$py" "$root/scripts/interop/ethereum_interop.py" "$bin/EthereumInterop" --sigil "$bin/sigil" \
    --rounds "${ETH_INTEROP_ROUNDS:-$(by_tier 60 200)}" --seed "${ETH_INTEROP_SEED:-20261127}"
