/*
 * ofl.h - common definitions of libofl (libgro/libgso): version, error
 * codes, the caller-replaceable allocator, and the export macro.
 *
 * libofl gives a NIC driver or a userspace network stack the receive and
 * transmit offloads the Linux kernel keeps to itself: GRO (gro.h), software
 * GSO/TSO into caller-owned header buffers (gso.h) and DSA switch-tag codecs
 * (dsa.h).  The library does no I/O, starts no thread, reads no clock and
 * keeps no global mutable state: the caller owns memory (struct ofl_mem),
 * time (every call that needs it takes now_ns) and threads (one context per
 * queue or core, no locks inside).
 *
 * Error convention: functions that can fail return int; 0 (or a
 * non-negative count/result) is success, a negative OFL_E* value is an
 * error.  Errors are only ever returned for misuse of the API or exhausted
 * caller-supplied resources; a malformed *packet* is never an error (it is
 * passed on untouched and counted).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef OFL_OFL_H
#define OFL_OFL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Marks the exported API (default visibility; empty for a static build). */
#if defined(OFL_STATIC)
#define OFL_API
#elif defined(_WIN32)
#ifdef OFL_BUILDING
#define OFL_API __declspec(dllexport)
#else
#define OFL_API __declspec(dllimport)
#endif
#else
#define OFL_API __attribute__((visibility("default")))
#endif

#define OFL_VERSION_MAJOR 0          /**< incompatible API changes */
#define OFL_VERSION_MINOR 1          /**< compatible additions */
#define OFL_VERSION_PATCH 0          /**< fixes */
#define OFL_VERSION_STRING "0.1.0"   /**< the three, as ofl_version() gives them */

/** Error codes.  Stable values; only appended. */
enum ofl_error {
	OFL_OK = 0,
	OFL_EINVAL = -1,   /**< an argument is NULL, zero or out of range */
	OFL_ENOMEM = -2,   /**< the allocator returned NULL (create time only) */
	OFL_E2BIG = -3,    /**< a packet has more buffers, or a request more
	                        bytes or segments, than the configuration allows */
	OFL_ENOSPC = -4,   /**< a caller-supplied pool, slot or ring is too small
	                        or exhausted */
	OFL_ENOTSUP = -5,  /**< the request is valid but not supported */
	OFL_EPROTO = -6,   /**< headers do not parse as the request says */
	OFL_ENOENT = -7,   /**< no such name (e.g. unknown DSA tag format) */
	OFL_EBADMSG = -8,  /**< a frame does not carry what it must (e.g. a DSA
	                        frame without a valid tag) */
	OFL_EAGAIN = -9,   /**< stopped early; call again to resume */
	OFL_ESTATE = -10,  /**< the call is not allowed in the object's state
	                        (e.g. re-entered from a callback) */
};

/** Human-readable text for an OFL_E* code (never NULL). */
OFL_API const char *ofl_strerror(int err);

/** Library version string, e.g. "0.1.0". */
OFL_API const char *ofl_version(void);

/**
 * Allocator.  Every allocation the library makes happens at create time
 * through this struct; no packet path allocates.  All three functions are
 * required when a struct ofl_mem is given; pass NULL where an ofl_mem is
 * taken to use the C library's malloc/free.
 */
struct ofl_mem {
	void *user;                                          /**< passed back */
	void *(*alloc)(void *user, size_t size, size_t align); /**< aligned; NULL on failure */
	void (*free)(void *user, void *ptr, size_t size);       /**< ptr from alloc, or NULL */
};

#ifdef __cplusplus
}
#endif
#endif /* OFL_OFL_H */
