#!/bin/sh
# The float32 4096×784 Gram matrix on the AVX2 path against OpenBLAS's
# cblas_ssyrk with its AVX2+FMA kernels, one and two threads, in ROUNDS
# interleaved rounds, with each round's ratio printed. On an AVX-512
# machine the path is capped with ROSENBLATT_KERNEL=avx2 (a proxy for an
# AVX2-only CPU; the output says which CPU it ran on). Each round:
#   - gram's TestGramCPUTime: linear and RBF on one goroutine, CPU time of
#     the thread, fastest of 3;
#   - ssyrk.c on one OpenBLAS thread: CPU time of the process, fastest of 3;
#   - gram's BenchmarkGram on two goroutines (linear and RBF; wall time, the
#     mean of 3 runs after a warm-up) and ssyrk.c on two threads (wall time,
#     fastest of 3): two threads cannot be timed in one thread's CPU time,
#     so read them on a quiet machine only.
# ssyrk writes the lower triangle only; gram.Compute writes both.
# Needs Go and gcc with Debian's libopenblas-dev. Run from the repository
# root; about 15 s a round:
#
#	sh bench/results/gram/avx2-gram-openblas.sh [ROUNDS] > OUT.txt
set -eu
rounds=${1:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/gram.test" ./gram
gcc -O2 -o "$tmp/ssyrk" bench/results/gram/ssyrk.c -lopenblas
export ROSENBLATT_KERNEL=avx2 OPENBLAS_CORETYPE=Haswell
echo "# $(go run ./cmd/rosenblatt cpu | head -3 | tr -s ' ' | tr '\n' ' ')"
echo "# $(go version); $(git log -1 --format='commit %h')$(git diff --quiet HEAD -- gram kernel _asm || echo ' (with uncommitted changes)'); ROSENBLATT_KERNEL=avx2 OPENBLAS_CORETYPE=Haswell; $(nproc) CPUs"
r=1
while [ "$r" -le "$rounds" ]; do
	echo "## round $r, load average $(cut -d' ' -f1-3 /proc/loadavg)"
	(cd gram && ROSENBLATT_CPUTIME_ROUNDS=3 "$tmp/gram.test" -test.run '^TestGramCPUTime$') | grep -v '^PASS' | tee "$tmp/ours1"
	OPENBLAS_NUM_THREADS=1 "$tmp/ssyrk" 3 | tee "$tmp/blas1"
	(cd gram && "$tmp/gram.test" -test.run '^$' -test.bench 'Gram/impl=avx2/type=f32/threads=2/n=4096/d=784(/kernel=rbf)?$' -test.benchtime 3x) |
		grep '^Benchmark' | tee "$tmp/ours2"
	OPENBLAS_NUM_THREADS=2 "$tmp/ssyrk" 3 | tee "$tmp/blas2"
	lin=$(awk '$2 == "linear" { print $7 }' "$tmp/ours1")
	rbf=$(awk '$2 == "rbf" { print $7 }' "$tmp/ours1")
	blas=$(sed -n 's/.* cpu \([0-9.]*\) ms.*/\1/p' "$tmp/blas1")
	lin2=$(awk '$1 ~ /threads=2\/n=4096\/d=784-/ { print $3 / 1e6 }' "$tmp/ours2")
	rbf2=$(awk '$1 ~ /kernel=rbf/ { print $3 / 1e6 }' "$tmp/ours2")
	blas2=$(sed -n 's/.* wall \([0-9.]*\) ms.*/\1/p' "$tmp/blas2")
	awk -v r="$r" -v lin="$lin" -v rbf="$rbf" -v blas="$blas" -v lin2="$lin2" -v rbf2="$rbf2" -v blas2="$blas2" 'BEGIN {
		printf "round %d: 1 thread (CPU): linear %.1f ms, ssyrk %.1f ms, linear / ssyrk %.3f, rbf / linear %.3f\n", r, lin, blas, lin / blas, rbf / lin
		printf "round %d: 2 threads (wall): linear %.1f ms, ssyrk %.1f ms, linear / ssyrk %.3f, rbf / linear %.3f\n", r, lin2, blas2, lin2 / blas2, rbf2 / lin2
	}' | tee -a "$tmp/summary"
	r=$((r + 1))
done
echo "## summary"
cat "$tmp/summary"
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
