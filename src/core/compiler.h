/*
 * compiler.h - the two inlining hints the packet paths use, for every
 * module (GRO, GSO, DSA): plain C elsewhere than gcc and clang.
 *   OFL_ALWAYS_INLINE  a body that must be copied into each caller, so that
 *                      its constant arguments fold (per-L3 train, per-codec
 *                      decode, per-segment GSO rules);
 *   OFL_NOINLINE       a rare, large path kept out of line so that the
 *                      per-packet path around it stays small.
 * and two branch hints, OFL_LIKELY(x): x is usually true (the block laid out
 * where the code falls through, no jump taken on the common path), and
 * OFL_UNLIKELY(x): x is usually false (the block laid out of the way).
 * OFL_NO_SLP on a function: GCC's straight-line (basic-block) vectorizer
 * off there, where it would join a few scalar stores or adds into vector
 * ones that cost more instructions to build than they save (nothing
 * elsewhere than GCC).
 */
#ifndef OFL_CORE_COMPILER_H
#define OFL_CORE_COMPILER_H

#if defined(__GNUC__) || defined(__clang__)
#define OFL_ALWAYS_INLINE __attribute__((always_inline))
#define OFL_NOINLINE __attribute__((noinline))
#define OFL_LIKELY(x) __builtin_expect(!!(x), 1)
#define OFL_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define OFL_ALWAYS_INLINE
#define OFL_NOINLINE
#define OFL_LIKELY(x) (x)
#define OFL_UNLIKELY(x) (x)
#endif

#if defined(__GNUC__) && !defined(__clang__)
#define OFL_NO_SLP __attribute__((optimize("no-tree-slp-vectorize")))
#else
#define OFL_NO_SLP
#endif

#endif
