#!/bin/sh
# The float32 4096×784 Gram matrix on the native AVX2 path of an AVX2-only
# CPU (Zen 3: no AVX-512, so the active implementation is avx2), before and
# after a change, against OpenBLAS's cblas_ssyrk (bench/results/gram/ssyrk.c,
# the library's own choice of kernels unless OPENBLAS_CORETYPE is set), in
# interleaved rounds on a machine shared with other jobs. Each round, in an
# order that alternates between the revisions from round to round:
#   - gram's TestGramCPUTime (linear and RBF, one goroutine, CPU time of the
#     thread, 3 runs each) of both revisions;
#   - gram's TestGramPartsCPUTime (2 runs) of both revisions: prepare, run,
#     run without the mirror, and the micro-kernel alone with run's calls on
#     panels in L1 (the test file of AFTER is put into BEFORE's tree, so both
#     measure the same parts);
#   - ssyrk on 1 and 2 threads (3 runs each: wall, CPU of the process, and
#     the separate copy to the upper triangle that gram makes and ssyrk
#     does not);
#   - gram's BenchmarkGram (wall, 3 runs) of both revisions, linear and RBF,
#     1 and 2 goroutines.
# The summary at the end gives, over the rounds, the fastest and the median
# of each figure (of the per-round minimum for the CPU-time tests) and
# benchstat of the wall-time benchmarks. Run from the repository root
# (Debian: libopenblas-dev):
#
#	sh bench/results/gram/avx2-gram-zen3.sh BEFORE AFTER [ROUNDS] > OUT.txt
set -eu
before=${1:?usage: BEFORE AFTER [ROUNDS]} after=${2:?} rounds=${3:-6}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/after"
git archive "$after" | tar -x -C "$tmp/after"
for rev in before after; do
	if [ $rev = before ]; then
		mkdir "$tmp/src"
		git archive "$before" | tar -x -C "$tmp/src"
		cp "$tmp/after/gram/cputime_linux_test.go" "$tmp/src/gram/"
		dir=$tmp/src
	else
		dir=$tmp/after
	fi
	(cd "$dir" && go test -c -o "$tmp/gram-$rev.test" ./gram)
done
rm -rf "$tmp/src" "$tmp/after"
gcc -O2 -o "$tmp/ssyrk" bench/results/gram/ssyrk.c -lopenblas
echo "# $(go run ./cmd/rosenblatt cpu 2>/dev/null | head -3 | tr -s ' ' | tr '\n' ' ')"
echo "# go: $(go version); before $before ($(git rev-parse --short "$before")), after $after ($(git rev-parse --short "$after")); ROSENBLATT_KERNEL=${ROSENBLATT_KERNEL:-} OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-}"
echo "# command: sh bench/results/gram/avx2-gram-zen3.sh $before $after $rounds"
log=$tmp/log.txt
# logged TAG CMD...: runs CMD, prints its output and appends the lines
# with " min " to the log, tagged.
logged() {
	tag=$1
	shift
	"$@" >"$tmp/out"
	grep -v '^PASS' "$tmp/out" || true
	grep ' min \|^openblas' "$tmp/out" | sed "s/^/$tag /" >>"$log"
}
r=1
while [ "$r" -le "$rounds" ]; do
	echo "## round $r, load average $(cut -d' ' -f1-3 /proc/loadavg)"
	order="before after"
	[ $((r % 2)) -eq 0 ] && order="after before"
	cd gram
	for rev in $order; do
		echo "### cputime $rev"
		logged "cputime $rev" env ROSENBLATT_CPUTIME_ROUNDS=3 "$tmp/gram-$rev.test" -test.run 'TestGramCPUTime$'
	done
	for rev in $order; do
		echo "### parts $rev"
		logged "parts $rev" env ROSENBLATT_CPUTIME_ROUNDS=2 "$tmp/gram-$rev.test" -test.run 'TestGramPartsCPUTime$'
	done
	cd ..
	for th in 1 2; do
		logged ssyrk env OPENBLAS_NUM_THREADS=$th "$tmp/ssyrk" 3
	done
	for rev in $order; do
		(cd gram && "$tmp/gram-$rev.test" -test.run '^$' -test.bench 'Gram/impl=avx2/type=f32/threads=[12]/n=4096/d=784(/kernel=rbf)?$' -test.benchtime 3x) |
			grep '^Benchmark' | sed "s/^BenchmarkGram/BenchmarkGram\/rev=$rev/" >>"$tmp/bench.txt"
	done
	r=$((r + 1))
done
echo "## wall, go test -bench (3 runs each, one line a round), raw"
cat "$tmp/bench.txt"
echo "## summary over $rounds rounds: fastest and median (CPU-time tests: of each round's minimum)"
# stat KEY VALUES...: prints KEY min … median … of the values.
stat() {
	k=$1
	shift
	printf '%s\n' "$@" | sort -n | awk -v k="$k" '{v[NR] = $1} END {printf "%-52s min %7.1f ms  median %7.1f ms  (%d)\n", k, v[1], v[int((NR + 1) / 2)], NR}'
}
for src in cputime parts; do
	for rev in before after; do
		grep "^$src $rev " "$log" | sed "s/^$src $rev //; s/ *min .*//" | sort -u | while read -r name; do
			stat "$src $rev $name" $(grep "^$src $rev $name  *min" "$log" | sed 's/.* min *\([0-9.]*\) ms.*/\1/')
		done
	done
done
for th in 1 2; do
	stat "ssyrk threads=$th wall" $(grep "^ssyrk .*threads=$th " "$log" | sed 's/.*wall \([0-9.]*\) ms.*/\1/')
	stat "ssyrk threads=$th cpu" $(grep "^ssyrk .*threads=$th " "$log" | sed 's/.*cpu \([0-9.]*\) ms.*/\1/')
	stat "ssyrk threads=$th mirror (not in ssyrk's time)" $(grep "^ssyrk .*threads=$th " "$log" | sed 's/.*mirror \([0-9.]*\) ms.*/\1/')
done
echo "## benchstat (wall)"
grep "rev=before/" "$tmp/bench.txt" | sed "s/rev=before\///" >"$tmp/before.txt"
grep "rev=after/" "$tmp/bench.txt" | sed "s/rev=after\///" >"$tmp/after.txt"
benchstat "$tmp/before.txt" "$tmp/after.txt"
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
