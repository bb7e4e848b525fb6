#!/bin/sh
# How bench/results/serving/serve-zen5.txt was made (from the repository root): the
# serving benchmarks of package serve, 5 interleaved rounds (every
# benchmark once per round), under the benchmark lock shared with the
# other jobs on the machine. The 2 vCPUs are shared with those jobs (their
# builds and tests are not under the lock): see the load averages printed
# before and after.
set -e
out=bench/results/serving/serve-zen5.txt
go test -c -o /tmp/serve-bench.test ./serve
{
	go run ./cmd/rosenblatt cpu | head -12
	echo
	echo "load before: $(uptime)"
	echo "\$ flock /work/wt/bench.lock sh -c 'for i in 1 2 3 4 5; do serve.test -test.run ^\$ -test.bench . -test.benchmem; done'"
	flock /work/wt/bench.lock sh -c 'for i in 1 2 3 4 5; do /tmp/serve-bench.test -test.run "^$" -test.bench . -test.benchmem; done'
	echo "load after: $(uptime)"
} > $out 2>&1
