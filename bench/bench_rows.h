// bench_rows.h - each area's Google Benchmark rows register themselves here.
#ifndef OFL_BENCH_ROWS_H
#define OFL_BENCH_ROWS_H

void register_gro_rows(void);
#ifdef OFL_BENCH_HAVE_GSO
void register_gso_rows(void);
#endif
#ifdef OFL_BENCH_HAVE_DSA
void register_dsa_rows(void);
#endif

#endif
