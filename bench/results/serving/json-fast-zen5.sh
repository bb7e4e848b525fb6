#!/bin/sh
# How bench/results/serving/json-fast-zen5.txt was made (from the
# repository root): BenchmarkHandlerCPU (the handlers in process, one
# 784-value sample of six-decimal values a request, binary /predict, JSON
# /predict and OIP REST inference), before (BEFORE, the commit before the
# JSON number fast path) and after (this commit), 10 interleaved rounds of
# each under the benchmark lock, with the CPU time of the benchmark's
# thread a request (cpu-ns/op). Then benchstat of the two.
set -e
out=bench/results/serving/json-fast-zen5.txt
BEFORE=${BEFORE:-d5a025a}
dir=$(mktemp -d)
git archive "$BEFORE" | tar -x -C "$dir"
(cd "$dir" && go test -c -o /tmp/serve-before.test ./serve)
go test -c -o /tmp/serve-after.test ./serve
rm -rf "$dir"
{
	go run ./cmd/rosenblatt cpu | sed -n 1,3p
	echo "load before: $(uptime)"
	for r in 1 2 3 4 5 6 7 8 9 10; do
		for v in before after; do
			echo "## $v round $r"
			(cd serve && flock /work/wt/bench.lock /tmp/serve-$v.test -test.run '^$' \
				-test.bench 'BenchmarkHandlerCPU/enc=.*/n=1$' -test.benchtime 5000x)
		done
	done
	echo "load after: $(uptime)"
} > $out 2>&1
awk '/^## before/{f="/tmp/json-before.txt"} /^## after/{f="/tmp/json-after.txt"} /^Benchmark/{print > f}' $out
benchstat /tmp/json-before.txt /tmp/json-after.txt >> $out
