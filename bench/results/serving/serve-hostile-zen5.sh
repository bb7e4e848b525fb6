#!/bin/sh
# How bench/results/serving/serve-hostile-zen5.txt was made (from the repository
# root): BenchmarkHandler (one d = 784 float32 sample, binary and JSON,
# in process) before the hostile-client limits (d1e78ce: body sized from the
# header, response built whole) and after (this commit: body grown as it
# arrives under the in-flight budget, response streamed), 5 interleaved
# rounds under the benchmark lock shared with the other jobs on the machine
# (their builds and tests are not under the lock: see the load averages).
set -e
out=bench/results/serving/serve-hostile-zen5.txt
rm -rf /tmp/serve-old && mkdir -p /tmp/serve-old
git archive d1e78ce | tar -x -C /tmp/serve-old
(cd /tmp/serve-old && go test -c -o /tmp/serve-old.test ./serve)
go test -c -o /tmp/serve-new.test ./serve
{
	go run ./cmd/rosenblatt cpu | head -12
	echo
	echo "load before: $(uptime)"
	echo "\$ flock /work/wt/bench.lock sh -c 'for i in 1 2 3 4 5; do serve-old.test ...; serve-new.test -test.run ^\$ -test.bench BenchmarkHandler/enc -test.benchmem -test.benchtime 20000x; done'"
	flock /work/wt/bench.lock sh -c 'for i in 1 2 3 4 5; do
		/tmp/serve-old.test -test.run "^$" -test.bench "BenchmarkHandler/enc" -test.benchmem -test.benchtime 20000x | grep ^Benchmark | sed "s/^/old /"
		/tmp/serve-new.test -test.run "^$" -test.bench "BenchmarkHandler/enc" -test.benchmem -test.benchtime 20000x | grep ^Benchmark | sed "s/^/new /"
	done'
	echo "load after: $(uptime)"
} > $out 2>&1
