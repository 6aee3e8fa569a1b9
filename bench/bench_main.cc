// bench_main.cc - ofl_bench: Google Benchmark main for every area's rows.
#include <benchmark/benchmark.h>

#include "bench_rows.h"

int main(int argc, char **argv)
{
	register_gro_rows();
#ifdef OFL_BENCH_HAVE_GSO
	register_gso_rows();
#endif
#ifdef OFL_BENCH_HAVE_DSA
	register_dsa_rows();
#endif
	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv))
		return 1;
	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	return 0;
}
