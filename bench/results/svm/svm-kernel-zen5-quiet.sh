#!/bin/sh
# The kernel SVM against scikit-learn's SVC only (the linear half of
# svm-zen5.sh takes ~10 minutes a round), three interleaved rounds, on a
# quiet machine (no other jobs; the load average is printed):
#
#	sh bench/results/svm/svm-kernel-zen5-quiet.sh > bench/results/svm/svm-kernel-zen5-quiet.txt 2>&1
set -u
stamp() { echo "## $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg): $*"; }
go run ./cmd/rosenblatt cpu | head -4
go test -c -o /tmp/svm.test ./svm
cd svm
for round in 1 2 3; do
	stamp "round $round: scikit-learn SVC (bench/peers/svc_fashion.py)"
	/usr/bin/python3 ../bench/peers/svc_fashion.py
	stamp "round $round: BenchmarkSVM"
	/tmp/svm.test -test.run '^$' -test.bench 'BenchmarkSVM$' -test.benchtime 3x -test.count 1
done
stamp done
