/* libsodium's C ed25519 sign/verify rate, for scripts/bench-keys (same message length and
 * iteration count as `sigil key bench`). Prints: "<sign ops/s> <verify ops/s>". */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 2000;
    size_t len = argc > 2 ? (size_t)atoi(argv[2]) : 32;
    if (sodium_init() < 0 || n <= 0 || len > (1u << 20)) return 1;
    unsigned char pk[crypto_sign_PUBLICKEYBYTES], sk[crypto_sign_SECRETKEYBYTES], sig[crypto_sign_BYTES];
    unsigned char *msg = calloc(len + 1, 1);
    if (!msg) return 1;
    for (size_t i = 0; i < len; i++) msg[i] = 0x5a;
    crypto_sign_keypair(pk, sk);
    double t = now();
    for (int i = 0; i < n; i++) crypto_sign_detached(sig, NULL, msg, len, sk);
    double sign = n / (now() - t);
    int ok = 1;
    t = now();
    for (int i = 0; i < n; i++) ok &= crypto_sign_verify_detached(sig, msg, len, pk) == 0;
    double verify = n / (now() - t);
    free(msg);
    if (!ok) return 1;
    printf("%.0f %.0f\n", sign, verify);
    return 0;
}
