// SHA-256 for content addressing. Nettle rather than OpenSSL: a small library with no
// configuration file and no provider modules, so the statically linked front end never
// dlopens a shared libcrypto beside its own copy.
#include <nettle/sha2.h>
