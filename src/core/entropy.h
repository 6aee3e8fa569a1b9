/* entropy.h - random bytes from the operating system (entropy.c), for the
 * flow-hash key a caller did not configure.  A freestanding build leaves
 * entropy.c out (CMake option OFL_ENTROPY=OFF defines OFL_NO_ENTROPY):
 * there ofl_entropy() always fails and the key must be configured. */
#ifndef OFL_CORE_ENTROPY_H
#define OFL_CORE_ENTROPY_H

#include <stddef.h>

#ifdef OFL_NO_ENTROPY
static inline int ofl_entropy(void *buf, size_t len)
{
	(void)buf;
	(void)len;
	return -1;
}
#else
/* Fill buf with len (<= 256) random bytes from the kernel (getrandom() on
 * Linux, getentropy() elsewhere; a system call, no file is opened).
 * Returns 0, or -1 when the system gives none. */
int ofl_entropy(void *buf, size_t len);
#endif

#endif
