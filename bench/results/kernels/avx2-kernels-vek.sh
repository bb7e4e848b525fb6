#!/bin/sh
# Dot, SqDist, Axpy, MatVec and Dots on the AVX2 path against vek, float32
# and float64, n = 16 … 4096 (SqDist: 1 … 4096), in thread CPU time. On an
# AVX-512 machine the path is capped with ROSENBLATT_KERNEL=avx2 (a proxy
# for an AVX2-only CPU; the output names the CPU). The bench module's
# TestVecCPUTime (Dot, Axpy, MatVec, Dots: ratio to vek and fraction of the
# L1 roof `rosenblatt bench` uses, the L1 read bandwidth measured in the
# same run) and TestSqDistCPUTime (SqDist against vek's Distance), each
# with ROUNDS interleaved rounds, fastest of each; the load average before
# each. Run from the repository root; under a minute at ROUNDS=15:
#
#	sh bench/results/kernels/avx2-kernels-vek.sh [ROUNDS] > OUT.txt
set -eu
rounds=${1:-15}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go -C bench test -c -o "$tmp/bench.test" .
export ROSENBLATT_KERNEL=avx2 ROSENBLATT_CPUTIME_ROUNDS=$rounds
echo "# $(go run ./cmd/rosenblatt cpu | head -3 | tr -s ' ' | tr '\n' ' ')"
echo "# $(go version); $(git log -1 --format='commit %h')$(git diff --quiet HEAD -- kernel _asm bench || echo ' (with uncommitted changes)'); ROSENBLATT_KERNEL=avx2 ROSENBLATT_CPUTIME_ROUNDS=$rounds; $(nproc) CPUs"
cd bench
echo "## TestVecCPUTime, load average $(cut -d' ' -f1-3 /proc/loadavg)"
"$tmp/bench.test" -test.run '^TestVecCPUTime$' | grep -v '^PASS'
echo "## TestSqDistCPUTime, load average $(cut -d' ' -f1-3 /proc/loadavg)"
"$tmp/bench.test" -test.run '^TestSqDistCPUTime$' | grep -v '^PASS'
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
