#!/bin/sh
# The float32 4096×784 Gram matrix on the AVX2 path (ROSENBLATT_KERNEL=avx2
# on an AVX-512 machine: a proxy for an AVX2-only CPU) before and after a
# change, against OpenBLAS's cblas_ssyrk with its AVX2 kernels
# (OPENBLAS_CORETYPE=Haswell; bench/results/gram/ssyrk.c), in interleaved
# rounds:
#   - gram's TestGramCPUTime (one goroutine, CPU time of the thread) of
#     both revisions,
#   - ssyrk on 1 and 2 threads (wall, and CPU time of the process),
#   - gram's BenchmarkGram (wall) of both revisions on 1 and 2 goroutines,
#     compared with benchstat.
# Run from the repository root (Debian: libopenblas-dev):
#
#	sh bench/results/gram/avx2-gram-zen5-capped.sh BEFORE AFTER ROUNDS > OUT.txt
#
# BEFORE and AFTER are git revisions; TestGramCPUTime is copied into the
# BEFORE tree when it lacks it.
set -eu
before=${1:?usage: BEFORE AFTER [ROUNDS]} after=${2:?} rounds=${3:-6}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for rev in "$before" "$after"; do
	mkdir "$tmp/src"
	git archive "$rev" | tar -x -C "$tmp/src"
	[ -f "$tmp/src/gram/cputime_linux_test.go" ] || cp gram/cputime_linux_test.go "$tmp/src/gram/"
	(cd "$tmp/src" && go test -c -o "$tmp/gram-$rev.test" ./gram)
	rm -rf "$tmp/src"
done
gcc -O2 -o "$tmp/ssyrk" bench/results/gram/ssyrk.c -lopenblas
export ROSENBLATT_KERNEL=avx2 OPENBLAS_CORETYPE=Haswell
echo "# $(go run ./cmd/rosenblatt cpu | head -2 | tr -s ' ' | tr '\n' ' ')"
echo "# go: $(go version); before $before ($(git rev-parse --short "$before")), after $after ($(git rev-parse --short "$after")); ROSENBLATT_KERNEL=avx2 OPENBLAS_CORETYPE=Haswell"
r=1
while [ "$r" -le "$rounds" ]; do
	echo "## round $r, load average $(cut -d' ' -f1-3 /proc/loadavg)"
	for rev in "$before" "$after"; do
		echo "### cputime $rev"
		(cd gram && ROSENBLATT_CPUTIME_ROUNDS=3 "$tmp/gram-$rev.test" -test.run TestGramCPUTime | grep -v '^PASS')
	done
	for th in 1 2; do
		OPENBLAS_NUM_THREADS=$th "$tmp/ssyrk" 3
	done
	for rev in "$before" "$after"; do
		(cd gram && "$tmp/gram-$rev.test" -test.run '^$' -test.bench 'Gram/impl=avx2/type=f32/threads=[12]/n=4096/d=784$' -test.benchtime 3x) |
			grep '^Benchmark' | sed "s/^BenchmarkGram/BenchmarkGram\/rev=$rev/" >>"$tmp/bench.txt"
	done
	r=$((r + 1))
done
echo "## wall, go test -bench (3 runs each, one line a round), raw"
cat "$tmp/bench.txt"
echo "## benchstat"
grep "rev=$before/" "$tmp/bench.txt" | sed "s/rev=$before\///" >"$tmp/before.txt"
grep "rev=$after/" "$tmp/bench.txt" | sed "s/rev=$after\///" >"$tmp/after.txt"
benchstat "$tmp/before.txt" "$tmp/after.txt"
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
