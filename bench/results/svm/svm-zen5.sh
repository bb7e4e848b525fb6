#!/bin/sh
# The SVM benchmarks and their peers, in one session, interleaved (peer,
# ours, peer, ours) so that the shared machine's load hits both alike:
#
#	/usr/bin/python3 bench/peers/fashion_libsvm.py /tmp/fashion-mnist
#	sh bench/results/svm/svm-zen5.sh > bench/results/svm/svm-zen5.txt 2>&1
#
# Needs Debian's python3-sklearn, liblinear-tools and dataset-fashion-mnist.
set -u
stamp() { echo "## $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg): $*"; }
go test -c -o /tmp/svm.test ./svm
cd svm
for round in 1 2 3; do
	stamp "round $round: scikit-learn SVC (bench/peers/svc_fashion.py)"
	/usr/bin/python3 ../bench/peers/svc_fashion.py
	stamp "round $round: BenchmarkSVM"
	/tmp/svm.test -test.run '^$' -test.bench 'BenchmarkSVM$' -test.benchtime 3x -test.count 1
	stamp "round $round: liblinear-train -s 3 -c 1 -B 1 (bench/peers/liblinear_fashion.sh)"
	sh ../bench/peers/liblinear_fashion.sh /tmp/fashion-mnist
	stamp "round $round: BenchmarkLinearSVM"
	/tmp/svm.test -test.run '^$' -test.bench 'BenchmarkLinearSVM' -test.benchtime 1x -test.count 1 -test.v
done
stamp done
