#!/bin/sh
# The float32 4096×784 Gram matrix, linear and RBF (the kernel function
# applied to each tile as its last feature block is done), on the AVX2 path
# (ROSENBLATT_KERNEL=avx2 on an AVX-512 machine: a proxy for an AVX2-only
# CPU), one goroutine, CPU time of the thread (gram's TestGramCPUTime), with
# OpenBLAS's cblas_ssyrk on its AVX2 kernels (OPENBLAS_CORETYPE=Haswell,
# bench/results/gram/ssyrk.c, one thread, CPU time of the process) in the
# same interleaved rounds. Run from the repository root (Debian:
# libopenblas-dev):
#
#	sh bench/results/gram/avx2-rbf-zen5-capped.sh [ROUNDS] > OUT.txt
set -eu
rounds=${1:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/gram.test" ./gram
gcc -O2 -o "$tmp/ssyrk" bench/results/gram/ssyrk.c -lopenblas
export ROSENBLATT_KERNEL=avx2 OPENBLAS_CORETYPE=Haswell
echo "# $(go run ./cmd/rosenblatt cpu 2>/dev/null | head -3 | tr -s ' ' | tr '\n' ' ')"
echo "# go: $(go version); $(git log -1 --format='commit %h'); ROSENBLATT_KERNEL=avx2 OPENBLAS_CORETYPE=Haswell"
r=1
while [ "$r" -le "$rounds" ]; do
	echo "## round $r, load average $(cut -d' ' -f1-3 /proc/loadavg)"
	(cd gram && ROSENBLATT_CPUTIME_ROUNDS=3 "$tmp/gram.test" -test.run TestGramCPUTime | grep -v '^PASS')
	OPENBLAS_NUM_THREADS=1 "$tmp/ssyrk" 3
	r=$((r + 1))
done
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
