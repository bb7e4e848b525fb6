#!/bin/sh
# The kernel-expansion model (package expansion) against 12801f6, the
# commit before it: svm's BenchmarkLayout (svm/layout_bench_test.go: the
# kernel SVM's fit, SMO with RBF one-vs-one on 2,000 synthetic rows of 32
# features, and the kernel SVM's and kernel perceptron's Predict of one row
# and PredictBatch of 4,000) from the test binaries of both commits (the
# same benchmark file copied into the old tree), alternated ROUNDS times,
# on one goroutine (-test.cpu 1). Besides ns/op (wall) each benchmark
# reports cpu-ns/op, the process CPU time (getrusage, user + system) per
# call: the machine is shared (load 40 on 2 vCPUs while this ran), so
# compare cpu-ns/op across the interleaved rounds, not wall time.
#
#	git archive 12801f6 | tar -x -C /tmp/exp-base
#	cp svm/layout_bench_test.go /tmp/exp-base/svm/
#	(cd /tmp/exp-base && go test -c -o /tmp/exp-bench/before.test ./svm)
#	go test -c -o /tmp/exp-bench/after.test ./svm
#	sh bench/results/layout/expansion-zen5.sh /tmp/exp-bench 3 > bench/results/layout/expansion-zen5.txt 2>&1
set -eu
bin=$1
uptime
for r in $(seq "$2"); do
	for b in before after; do
		echo "== round $r $b"
		(cd svm && "$bin/$b.test" -test.run '^$' -test.bench 'BenchmarkLayout' -test.benchtime 3x -test.cpu 1 2>&1 | grep -v '^goos\|^goarch\|^pkg\|^PASS')
	done
done
uptime
