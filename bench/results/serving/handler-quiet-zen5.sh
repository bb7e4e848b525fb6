#!/bin/sh
# The handlers in process on one 784-value sample (serve's
# BenchmarkHandlerCPU: binary, JSON /predict and OIP REST bodies, the
# thread's CPU time a request), ROUNDS (10) rounds on a machine with no
# other job, and each round's JSON ÷ binary and OIP ÷ binary ratios of
# cpu-ns/op. From the repository root:
#   sh bench/results/serving/handler-quiet-zen5.sh > bench/results/serving/handler-quiet-zen5.txt 2>&1
set -e
rounds=${ROUNDS:-10}
bin=$(mktemp)
trap 'rm -f "$bin"' EXIT
go test -c -o "$bin" ./serve
go run ./cmd/rosenblatt cpu | sed -n 1,3p
echo "load before: $(uptime)"
r=1
while [ "$r" -le "$rounds" ]; do
	echo "## round $r"
	(cd serve && "$bin" -test.run '^$' -test.bench 'BenchmarkHandlerCPU/enc=.*/n=1$' -test.benchtime 5000x) |
		grep '^Benchmark' | tee /tmp/handler-round.txt
	awk '/cpu-ns\/op/ { for (i = 1; i < NF; i++) if ($(i+1) == "cpu-ns/op") v[$1] = $i }
		END { for (k in v) if (k ~ /binary/) b = v[k];
		      for (k in v) if (k !~ /binary/) printf "ratio %s / binary: %.1f\n", k, v[k] / b }' /tmp/handler-round.txt
	r=$((r + 1))
done
echo "load after: $(uptime)"
