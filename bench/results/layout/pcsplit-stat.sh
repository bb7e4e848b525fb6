#!/bin/sh
# benchstat of pcsplit-ab.sh's output files (base against head), the
# per-process CPU lines as benchmarks of their own (ProcessCPU/…):
#   sh bench/results/layout/pcsplit-stat.sh bench/results/layout/pcsplit-ab-*.txt > bench/results/layout/pcsplit-ab.benchstat.txt
set -e
W=$(mktemp -d)
for v in base head; do
	cat "$@" | grep "^$v:" | sed "s/^$v://" |
		awk '$1 == "cpu" { n = $2; gsub(/[^A-Za-z0-9=\/_-]/, "", n); print "BenchmarkProcessCPU/" n " 1 " $3 " cpu-s/run"; next } { print }' > "$W/$v"
done
(cd "$W" && benchstat base head)
rm -rf "$W"
