#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>
#include <stdint.h>

// SSL_OP_* are function-like macros (SSL_OP_BIT) that Swift cannot import: the server's option set,
// as one value. No renegotiation (CVE-2009-3555 class, client-initiated renegotiation DoS), no TLS compression (CRIME), the
// server's cipher order, no session tickets (no ticket keys to manage or rotate).
static inline uint64_t sigil_tls_server_options(void) {
    return SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION | SSL_OP_CIPHER_SERVER_PREFERENCE | SSL_OP_NO_TICKET;
}
