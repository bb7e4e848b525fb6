#!/bin/sh
# Dots2 moved from kernel to internal/modelkern (the same assembly, one
# more Go call between the method and it): perceptron's TestPredictCPUTime
# (thread CPU time, fastest of ROUNDS interleaved rounds; PredictBatch and
# Dots2 among its rows) from the test binaries of the commit before the
# kernel moves (before.test) and of the one after Dots2's (after2.test),
# alternated.
#
#	(cd /tmp/kerntrim-before && go test -c -o /tmp/kerntrim-bench/before.test ./perceptron)
#	go test -c -o /tmp/kerntrim-bench/after2.test ./perceptron
#	sh bench/results/layout/dots2-cpu-zen5.sh /tmp/kerntrim-bench 3 > bench/results/layout/dots2-cpu-zen5.txt 2>&1
set -eu
bin=$1
uptime
for r in $(seq "$2"); do
	for b in before after2; do
		echo "== round $r $b"
		(cd perceptron && ROSENBLATT_CPUTIME_ROUNDS=30 "$bin/$b.test" -test.run 'TestPredictCPUTime$' -test.v 2>&1 | grep -v '^=== RUN\|^--- PASS\|^PASS')
	done
done
uptime
