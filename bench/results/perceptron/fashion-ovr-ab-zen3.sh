#!/bin/sh
# Before/after the shared sample windows of shuffled dense one-vs-rest epochs
# (perceptron's rowRing: each window of 32 shuffled samples gathered once for
# both goroutines instead of once per goroutine): the averaged perceptron,
# one-vs-rest, 10 shuffled epochs on all of Fashion-MNIST
# (BenchmarkTrain/data=fashion-mnist/algo=averaged-ovr, default goroutines,
# and -1goroutine, which the change leaves alone), BEFORE and AFTER test
# binaries built first, then run in ROUNDS interleaved rounds (-benchtime 3x
# each) with the load average and the process's CPU time (user+sys, which
# includes loading the data set, about 1.3 s) of every run; benchstat at the
# end (golang.org/x/perf/cmd/benchstat on PATH). Run from the repository root:
#
#	sh bench/results/perceptron/fashion-ovr-ab-zen3.sh [ROUNDS] [BEFORE] > OUT.txt
#
# BEFORE is a commit (default the parent of HEAD's change, 3c19570).
set -eu
rounds=${1:-6}
before=${2:-3c19570}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git archive "$before" | tar -x -C "$tmp" --one-top-level=src
(cd "$tmp/src" && go test -c -o "$tmp/before.test" ./perceptron)
go test -c -o "$tmp/after.test" ./perceptron
echo "# $(go run ./cmd/rosenblatt cpu | head -3 | tr -s ' ' | tr '\n' ' ')"
echo "# go: $(go version); before $(git rev-parse --short "$before"), after $(git log -1 --format=%h) $(git status --porcelain --untracked-files=no -- . ':!bench/results' | grep -q . && echo '(+ uncommitted changes)')"
echo "# sh bench/results/perceptron/fashion-ovr-ab-zen3.sh $rounds $before"
r=1
while [ "$r" -le "$rounds" ]; do
	for side in before after; do
		echo "## round $r $side, load average $(cut -d' ' -f1-3 /proc/loadavg)"
		(cd perceptron && /usr/bin/time -f "# $side process: wall %e s, cpu %U+%S s" "$tmp/$side.test" -test.run '^$' -test.benchtime 3x \
			-test.bench '^BenchmarkTrain$/^data=fashion-mnist$/^algo=averaged-ovr(-1goroutine)?$' 2>&1) |
			grep -E '^Benchmark|process:' | tee -a "$tmp/$side.txt"
	done
	r=$((r + 1))
done
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# benchstat before.txt after.txt"
(cd "$tmp" && benchstat before.txt after.txt)
