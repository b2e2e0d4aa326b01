"""schnorrkel sr25519 sign/verify rate through py-sr25519-bindings, for scripts/bench-keys.
Usage: schnorrkel.py ITERATIONS MESSAGE_LENGTH [sign|verify|both].
Prints: "<sign ops/s> <verify ops/s>" (0 for an operation not run)."""
import os
import sys
import time

import sr25519

n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
length = int(sys.argv[2]) if len(sys.argv) > 2 else 32
only = sys.argv[3] if len(sys.argv) > 3 else "both"
keypair = sr25519.pair_from_seed(os.urandom(32))
msg = b"\x5a" * length
sign = sr25519.sign
verify = sr25519.verify
sig = sign(keypair, msg)
sign_rate = verify_rate = 0.0
if only != "verify":
    t = time.perf_counter()
    for _ in range(n):
        sig = sign(keypair, msg)
    sign_rate = n / (time.perf_counter() - t)
ok = True
if only != "sign":
    t = time.perf_counter()
    for _ in range(n):
        ok = verify(sig, msg, keypair[0]) and ok
    verify_rate = n / (time.perf_counter() - t)
if not ok:
    sys.exit(1)
print(f"{sign_rate:.0f} {verify_rate:.0f}")
