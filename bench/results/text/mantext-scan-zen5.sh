#!/bin/sh
# mantext-bias-zen5.sh again after the scan (kernel.ScanBlock2: the
# sparse one-vs-rest epoch of a group of at most eight classes scores its
# visits in one kernel call until one needs an update): the averaged
# one-vs-rest fit on the manual-page text sets with the bias feature
# B = 0.1, against scikit-learn's Perceptron(max_iter=10), interleaved
# round by round (one BLAS/OpenMP thread; one goroutine): on the NAME
# lines ROUNDS rounds of 20 fits per process, with and without -noeval
# (SkipEvaluation: no final pass for the training diagnostics, which
# scikit-learn's fit has no counterpart of); on the whole pages 3 rounds
# of 5. Then the test accuracy of 8 seeds of each (the scan changes no
# bit of a model: the same accuracies as mantext-bias-zen5.txt).
#
#	go -C bench build -o /tmp/tf-scan ./textfit
#	sh bench/results/text/mantext-scan-zen5.sh /tmp/mantext 5 > bench/results/text/mantext-scan-zen5.txt 2>&1
set -eu
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
dir=$1
uptime
uname -m; go run ./cmd/rosenblatt cpu | head -3; go version; /usr/bin/python3 -c 'import sklearn; print("scikit-learn", sklearn.__version__)'
git log -1 --format='commit %h %s'
(cd "$dir" && sha256sum mantext.train.libsvm mantext.test.libsvm mantext-name.train.libsvm mantext-name.test.libsvm)
for r in $(seq "$2"); do
	echo "== mantext-name round $r: after"
	/tmp/tf-scan -B 0.1 -workers 1 "$dir/mantext-name" 20
	echo "== mantext-name round $r: after-noeval"
	/tmp/tf-scan -B 0.1 -workers 1 -noeval "$dir/mantext-name" 20
	echo "== mantext-name round $r: sklearn"
	/usr/bin/python3 bench/peers/mantext.py "$dir/mantext-name" 8
done
for r in 1 2 3; do
	echo "== mantext round $r: after"
	/tmp/tf-scan -B 0.1 -workers 1 "$dir/mantext" 5
	echo "== mantext round $r: after-noeval"
	/tmp/tf-scan -B 0.1 -workers 1 -noeval "$dir/mantext" 5
	echo "== mantext round $r: sklearn"
	/usr/bin/python3 bench/peers/mantext.py "$dir/mantext" 3
done
for set in mantext-name mantext; do
	echo "== $set: accuracy of 8 seeds"
	/tmp/tf-scan -B 0.1 -seeds 8 "$dir/$set"
	/tmp/tf-scan -seeds 8 "$dir/$set"
	/usr/bin/python3 bench/peers/mantext.py "$dir/$set" seeds 8
done
uptime
