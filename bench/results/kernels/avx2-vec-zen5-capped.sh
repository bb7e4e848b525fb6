#!/bin/sh
# Dot, Axpy, MatVec and Dots on the AVX2 path (ROSENBLATT_KERNEL=avx2 on an
# AVX-512 machine: a proxy for an AVX2-only CPU) against vek at n = 16 …
# 4096, with each one's fraction of the L1 roof: the bench module's
# TestVecCPUTime (thread CPU time, interleaved rounds, the fastest of each),
# in PASSES passes with the load average before each. Run from the
# repository root:
#
#	sh bench/results/kernels/avx2-vec-zen5-capped.sh [PASSES] [ROUNDS] > OUT.txt
set -eu
passes=${1:-2} rounds=${2:-15}
go -C bench test -c -o /tmp/rosenblatt-bench-vec.test .
echo "# $(go run ./cmd/rosenblatt cpu | head -2 | tr -s ' ' | tr '\n' ' ')"
echo "# go: $(go version); $(git log -1 --format='commit %h'); ROSENBLATT_KERNEL=avx2 ROSENBLATT_CPUTIME_ROUNDS=$rounds"
p=1
while [ "$p" -le "$passes" ]; do
	echo "## pass $p, load average $(cut -d' ' -f1-3 /proc/loadavg)"
	(cd bench && ROSENBLATT_KERNEL=avx2 ROSENBLATT_CPUTIME_ROUNDS=$rounds /tmp/rosenblatt-bench-vec.test -test.run TestVecCPUTime | grep -v '^PASS')
	p=$((p + 1))
done
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
