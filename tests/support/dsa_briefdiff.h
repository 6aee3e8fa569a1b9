/*
 * dsa_briefdiff.h - check dsa.h's promise that ofl_dsa_decode_brief() gives
 * what the full decode gives, on every frame a DSA test decodes.
 *
 * Linked into a test binary with -Wl,--wrap=ofl_dsa_decode (CMake:
 * ofl_add_dsa_brief_test in tests/dsa.cmake), it sees every
 * ofl_dsa_decode() call the test makes.  The call runs unchanged (the
 * test's own asserts see its result); then the same frame, copied to an
 * exact-size heap buffer (a sanitizer sees any over-read), is decoded again
 * by ofl_dsa_decode() and by a decoder prepared for the same format,
 * direction and params through ofl_dsa_decode_brief() and
 * ofl_dsa_decode_cut(), and:
 *   - the return codes are equal;
 *   - on success, the brief's flags, valid (OFL_DSA_M_PORT and
 *     OFL_DSA_M_SWITCH), port and switch_id equal meta's, its cut equals
 *     decode_cut's (the 8 bytes before ins[], and ins[0 .. ins_len)), the
 *     cut turned into a view equals the full decode's view (offsets,
 *     lengths, header bytes), and reserved[] is not written;
 *   - on failure, the brief is not written at all.
 * A difference fails the running Check test, naming format and direction.
 */
#ifndef OFL_TEST_DSA_BRIEFDIFF_H
#define OFL_TEST_DSA_BRIEFDIFF_H

#include <stddef.h>

/* How many decodes were compared so far (the wrap is in place when a test
 * that decoded sees more than 0). */
size_t dsa_briefdiff_count(void);

#endif
