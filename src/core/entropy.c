/*
 * entropy.c - the operating system's random bytes (see entropy.h): the only
 * place the library asks the system for anything, at create time, and only
 * when the caller configured no flow-hash key.  Left out of a freestanding
 * build (OFL_ENTROPY=OFF).
 */
#if defined(__linux__)
#define _GNU_SOURCE /* getrandom() in glibc and musl */
#include <sys/random.h>
#else
#define _DEFAULT_SOURCE /* getentropy() */
#include <unistd.h>
#if defined(__APPLE__)
#include <sys/random.h>
#endif
#endif
#include <errno.h>

#include "core/entropy.h"

int ofl_entropy(void *buf, size_t len)
{
	unsigned char *p = buf;
	if (len > 256)
		return -1;
#if defined(__linux__)
	while (len > 0) {
		ssize_t n = getrandom(p, len, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
#else
	return getentropy(p, len) == 0 ? 0 : -1;
#endif
}
