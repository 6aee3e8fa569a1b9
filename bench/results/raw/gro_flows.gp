set terminal pngcairo size 900,560 font ',10'
set output '/work/main/bench/results/gro_flows.png'
set title "GRO, TCP bulk, poll 32, one buffer, checksums verified: ns per packet vs flows\nAMD EPYC, 2 vCPUs, shared noisy VM, 2026-12-05 10:27 UTC"
set logscale x 2
set logscale y 10
set xlabel 'flows interleaved'
set ylabel 'ns per input packet (median)'
set grid
set key top left
set xrange [0.7:100000]
plot '/work/main/bench/results/raw/plot_ofl_burst.dat' using 1:2 with linespoints lc rgb '#1f77b4' pt 7 lw 2 title 'libofl, timeout 0 (same run as DPDK)', '/work/main/bench/results/raw/plot_dpdk_burst.dat' using 1:2 with linespoints lc rgb '#d62728' pt 5 lw 2 title 'DPDK rte\_gro\_reassemble\_burst', '/work/main/bench/results/raw/plot_ofl_ctx.dat' using 1:2 with linespoints lc rgb '#1f77b4' dt 2 pt 6 lw 2 title 'libofl, 200 us timeout', '/work/main/bench/results/raw/plot_dpdk_ctx.dat' using 1:2 with linespoints lc rgb '#d62728' dt 2 pt 4 lw 2 title 'DPDK context + timeout\_flush', '/work/main/bench/results/raw/plot_gb6_burst.dat' using 1:2 with linespoints lc rgb '#2ca02c' pt 9 lw 2 title 'libofl TCP/IPv6, timeout 0'
