/* Force-included (compiler option -include) before every file of every
 * Check test: see ofl_testsupport in tests/CMakeLists.txt.
 *
 * Check's assertion macros call _mark_point() on every assertion that passes.
 * It records "the last line reached" so that a test case which crashes can be
 * located, and it does so by writing a message to Check's temporary file
 * (one write system call per passing assertion), which the runner reads back
 * and parses after each case.  Our tests sweep burst sizes, buffer splits and
 * rule tables, with millions of passing assertions: that bookkeeping cost more
 * than the tests themselves (gso_burst_test, gcc build, forked cases: 8.1 s
 * of CPU with it, 1.9 s without).
 *
 * Renaming _mark_point to the empty inline function below makes a passing
 * assertion cost its comparison only.  A failing assertion still reports its
 * file, line and message (_ck_assert_failed is untouched); a case that
 * crashes is still reported as a failure, named by its test case, without
 * the line of its last passing assertion.
 *
 * The rename is an object-like macro so that check.h's own declaration of
 * _mark_point becomes a harmless redeclaration of this static function.
 */
#ifndef OFL_TEST_CHECK_NOMARK_H
#define OFL_TEST_CHECK_NOMARK_H

static inline void ofl_test_no_mark_point(const char *file, int line)
{
	(void)file;
	(void)line;
}
#define _mark_point ofl_test_no_mark_point

#endif
