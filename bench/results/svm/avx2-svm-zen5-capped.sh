#!/bin/sh
# The RBF kernel SVM on Fashion-MNIST 10k (one-vs-one, C = 1, gamma="scale")
# on the AVX2 path (ROSENBLATT_KERNEL=avx2 on an AVX-512 machine: a proxy for
# an AVX2-only CPU) against scikit-learn's SVC, fit and prediction, wall and
# process CPU time, ROUNDS interleaved rounds (ours on 2 goroutines and on 1).
# Run from the repository root (Debian: python3-sklearn, dataset-fashion-mnist):
#
#	sh bench/results/svm/avx2-svm-zen5-capped.sh [ROUNDS] > OUT.txt
set -eu
rounds=${1:-2}
go -C bench test -c -o /tmp/rosenblatt-bench-svm.test .
echo "# $(go run ./cmd/rosenblatt cpu | head -3 | tr -s ' ' | tr '\n' ' ')"
echo "# go: $(go version); $(git log -1 --format='commit %h'); ROSENBLATT_KERNEL=avx2"
r=1
while [ "$r" -le "$rounds" ]; do
	echo "## round $r, load average $(cut -d' ' -f1-3 /proc/loadavg)"
	/usr/bin/python3 bench/results/svm/svc-cputime.py
	for p in 2 1; do
		(cd bench && GOMAXPROCS=$p ROSENBLATT_KERNEL=avx2 ROSENBLATT_CPUTIME_ROUNDS=1 /tmp/rosenblatt-bench-svm.test -test.run TestSVMFashionCPUTime | grep -v '^PASS')
	done
	r=$((r + 1))
done
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
